/**
 * The reusable piece that makes any Kafka handler idempotent: each record is handled in one JTA
 * transaction that first records {@code consumed_event(consumer_group, event_id)}; a record whose
 * event id is already recorded has no effect. Failures retry with backoff, then go to the
 * consumer's dead-letter topic {@code <topic>.<group>.DLT}.
 */
package io.outboxrelay.consumer;

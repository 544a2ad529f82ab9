/**
 * The relay: claims committed outbox rows, publishes them to Kafka and records the outcome
 * (SENT, a retry later, the dead-letter topic, or DEAD). Runs in every server; servers share
 * the work through row locks and leases only.
 */
package io.outboxrelay.relay;

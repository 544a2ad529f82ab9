package io.outboxrelay.relay.entity;

/** What Kafka said about one record: where it landed, or why not. */
public sealed interface PublishResult {

    record Acked(int partition, long offset) implements PublishResult {
    }

    record Failed(Throwable error) implements PublishResult {
    }
}

package io.outboxrelay.relay.entity;

/** What Kafka said about one record: where it landed, or why not; or that it was not sent at all. */
public sealed interface PublishResult {

    record Acked(int partition, long offset) implements PublishResult {
    }

    record Failed(Throwable error) implements PublishResult {
    }

    /** Never handed to Kafka: the round's lease would have run out before it could land. */
    record NotSent(String reason) implements PublishResult {
    }
}

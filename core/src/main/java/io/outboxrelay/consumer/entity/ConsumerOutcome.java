package io.outboxrelay.consumer.entity;

/**
 * How a consumer group finished with one record, fired as a CDI event after the record was
 * settled (for the metrics): handled, skipped as a duplicate, or dead-lettered, after
 * {@code failedAttempts} failed handler attempts.
 */
public record ConsumerOutcome(String group, Kind kind, int failedAttempts) {

    public enum Kind { PROCESSED, DUPLICATE, DEAD_LETTERED }
}

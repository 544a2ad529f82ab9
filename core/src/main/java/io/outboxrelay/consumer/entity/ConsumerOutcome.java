package io.outboxrelay.consumer.entity;

import java.time.Duration;

/**
 * How a consumer group finished with one record, fired as a CDI event after the record was
 * settled (for the metrics): handled, skipped as a duplicate, or dead-lettered, after
 * {@code failedAttempts} failed handler attempts, {@code handling} after its handling began
 * (retries, backoff and the dead letter's writing included).
 */
public record ConsumerOutcome(String group, Kind kind, int failedAttempts, Duration handling) {

    public enum Kind { PROCESSED, DUPLICATE, DEAD_LETTERED }

    /** Failed attempts that were tried again (the last failure of a dead-lettered record was not). */
    public int retries() {
        return kind == Kind.DEAD_LETTERED ? Math.max(0, failedAttempts - 1) : failedAttempts;
    }
}

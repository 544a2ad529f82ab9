package io.outboxrelay.outbox.entity;

/** Where an outbox row is in its life; see the design's state diagram. */
public enum EventStatus {
    /** Committed, waiting for the relay (possibly for a retry at {@code next_attempt_at}). */
    PENDING,
    /** Claimed by one relay instance, which holds a lease on it. */
    IN_FLIGHT,
    /** Acknowledged by Kafka. */
    SENT,
    /** Could not be published; written to the topic's dead-letter topic instead. */
    DLT,
    /** Could not be published, not even to the dead-letter topic. */
    DEAD
}

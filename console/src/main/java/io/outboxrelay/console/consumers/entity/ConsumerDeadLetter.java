package io.outboxrelay.console.consumers.entity;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A record a consumer group gave up on: where it lay, why it failed, how often, and what became of it
 * (DEAD_LETTERED, REPLAY_REQUESTED, REPLAYING, REPLAYED with the replay's outcome).
 */
public record ConsumerDeadLetter(long id, String consumerGroup, UUID eventId, String eventType, String topic,
                                 int partition, long offset, String dltTopic, String errorClass, String errorMessage,
                                 int attempts, OffsetDateTime firstFailedAt, OffsetDateTime lastFailedAt, String status,
                                 int replayCount, OffsetDateTime replayedAt, String replayOutcome,
                                 OffsetDateTime createdAt, OffsetDateTime updatedAt) {
}

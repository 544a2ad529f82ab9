package io.outboxrelay.console.events.entity;

import jakarta.json.JsonValue;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * Everything about one event: the outbox row (or its archived copy, {@code archivedAt} then set), where it
 * landed in Kafka, its replays, what each consumer group did with it, and all of that as one timeline,
 * oldest first.
 */
public record EventDetail(UUID eventId, String aggregateType, String aggregateId, String eventType, int eventVersion,
                          String topic, String status, int attempts, String lastError, OffsetDateTime nextAttemptAt,
                          OffsetDateTime lastAttemptAt, OffsetDateTime firstFailedAt, String leaseOwner,
                          OffsetDateTime leaseUntil, Integer kafkaPartition, Long kafkaOffset,
                          OffsetDateTime publishedAt, OffsetDateTime createdAt, OffsetDateTime updatedAt,
                          OffsetDateTime archivedAt, int replayCount, JsonValue payload, JsonValue headers, List<AuditEntry> replays,
                          List<ConsumerStory> consumers, List<TimelineEntry> timeline) {

    public EventDetail withTimeline(List<TimelineEntry> steps) {
        return new EventDetail(eventId, aggregateType, aggregateId, eventType, eventVersion, topic, status, attempts,
                lastError, nextAttemptAt, lastAttemptAt, firstFailedAt, leaseOwner, leaseUntil, kafkaPartition, kafkaOffset,
                publishedAt, createdAt, updatedAt, archivedAt, replayCount, payload, headers, replays, consumers, List.copyOf(steps));
    }
}

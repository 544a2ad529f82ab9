package io.outboxrelay.console.events.entity;

import jakarta.json.JsonValue;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** Everything about one event, including where it landed in Kafka and its replays. */
public record EventDetail(UUID eventId, String aggregateType, String aggregateId, String eventType, int eventVersion,
                          String topic, String status, int attempts, String lastError, OffsetDateTime nextAttemptAt,
                          OffsetDateTime lastAttemptAt, OffsetDateTime firstFailedAt, String leaseOwner,
                          OffsetDateTime leaseUntil, Integer kafkaPartition, Long kafkaOffset,
                          OffsetDateTime publishedAt, OffsetDateTime createdAt, OffsetDateTime updatedAt,
                          int replayCount, JsonValue payload, JsonValue headers, List<AuditEntry> replays) {
}

package io.outboxrelay.console.events.entity;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One row of a search result. */
public record EventSummary(UUID eventId, String aggregateType, String aggregateId, String eventType, String topic,
                           String status, int attempts, int replayCount, OffsetDateTime createdAt,
                           OffsetDateTime publishedAt, String lastError) {
}

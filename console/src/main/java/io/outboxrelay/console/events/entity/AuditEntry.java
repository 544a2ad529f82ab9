package io.outboxrelay.console.events.entity;

import jakarta.json.JsonValue;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One replay as the audit log recorded it. */
public record AuditEntry(long id, OffsetDateTime at, String actor, String action, UUID eventId, JsonValue filter,
                         OffsetDateTime cutoff, int matched, int replayed) {
}

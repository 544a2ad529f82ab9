package io.outboxrelay.console.events.entity;

import jakarta.json.JsonValue;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One replay as the audit log recorded it; a consumer replay names the consumer group it went to. */
public record AuditEntry(long id, OffsetDateTime at, String actor, String action, UUID eventId, JsonValue filter,
                         OffsetDateTime cutoff, int matched, int replayed, String consumerGroup) {

    /** What was replayed, in words. */
    public String what() {
        return switch (action) {
            case "REPLAY_ONE" -> "one event";
            case "REPLAY_BULK" -> "bulk";
            case "CONSUMER_REPLAY_ONE" -> "one record, to consumer group " + consumerGroup;
            case "CONSUMER_REPLAY_BULK" -> "bulk, to " + (consumerGroup == null ? "each record's consumer group"
                    : "consumer group " + consumerGroup);
            default -> action;
        };
    }
}

package io.outboxrelay.relay.entity;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/** An outbox row this relay instance holds a lease on, with everything needed to publish it. */
public record ClaimedEvent(long id, UUID eventId, String aggregateType, String aggregateId, String eventType,
                           int eventVersion, String topic, String payload, Map<String, String> headers,
                           int attempts, OffsetDateTime createdAt, OffsetDateTime firstFailedAt) {
}

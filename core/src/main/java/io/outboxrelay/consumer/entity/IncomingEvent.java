package io.outboxrelay.consumer.entity;

import java.util.UUID;

/**
 * A record as a handler sees it: the event id it is deduplicated on, its type and its JSON, and
 * the trace context it travelled with (W3C {@code traceparent} and correlation id, when present).
 */
public record IncomingEvent(UUID eventId, String eventType, String aggregateId, String payload,
                            String traceparent, String correlationId) {

    public IncomingEvent(UUID eventId, String eventType, String aggregateId, String payload) {
        this(eventId, eventType, aggregateId, payload, null, null);
    }
}

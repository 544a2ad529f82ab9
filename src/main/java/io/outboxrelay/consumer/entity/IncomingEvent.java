package io.outboxrelay.consumer.entity;

import java.util.UUID;

/** A record as a handler sees it: the event id it is deduplicated on, its type and its JSON. */
public record IncomingEvent(UUID eventId, String eventType, String aggregateId, String payload) {
}

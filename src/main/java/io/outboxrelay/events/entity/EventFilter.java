package io.outboxrelay.events.entity;

import io.outboxrelay.outbox.entity.EventStatus;

import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

/** What operators search by; every field is optional. {@code from}/{@code to} bound created_at. */
public record EventFilter(UUID eventId, String aggregateType, String aggregateId, String eventType,
                          Set<EventStatus> statuses, OffsetDateTime from, OffsetDateTime to) {

    public EventFilter {
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    }

    public EventFilter withStatuses(Set<EventStatus> replacement) {
        return new EventFilter(eventId, aggregateType, aggregateId, eventType, replacement, from, to);
    }
}

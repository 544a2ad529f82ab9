package io.outboxrelay.console.events.entity;

import io.outboxrelay.outbox.entity.EventStatus;

import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

/**
 * What operators search by; every field is optional. {@code from}/{@code to} bound created_at;
 * {@code errorClass} is the exception class that starts {@code last_error} (how dead letters are triaged).
 */
public record EventFilter(UUID eventId, String aggregateType, String aggregateId, String eventType,
                          Set<EventStatus> statuses, OffsetDateTime from, OffsetDateTime to,
                          String topic, String errorClass) {

    public EventFilter {
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
    }

    public EventFilter(UUID eventId, String aggregateType, String aggregateId, String eventType,
                       Set<EventStatus> statuses, OffsetDateTime from, OffsetDateTime to) {
        this(eventId, aggregateType, aggregateId, eventType, statuses, from, to, null, null);
    }

    public EventFilter withStatuses(Set<EventStatus> replacement) {
        return new EventFilter(eventId, aggregateType, aggregateId, eventType, replacement, from, to, topic, errorClass);
    }

    public EventFilter withGroup(String groupTopic, String groupErrorClass) {
        return new EventFilter(eventId, aggregateType, aggregateId, eventType, statuses, from, to, groupTopic, groupErrorClass);
    }
}

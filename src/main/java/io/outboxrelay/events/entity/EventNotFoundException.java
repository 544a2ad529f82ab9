package io.outboxrelay.events.entity;

import java.util.UUID;

public class EventNotFoundException extends RuntimeException {

    public EventNotFoundException(UUID eventId) {
        super("No event with id " + eventId);
    }
}

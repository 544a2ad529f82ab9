package io.outboxrelay.console.events.entity;

import java.util.UUID;

public class EventNotFoundException extends RuntimeException {

    public EventNotFoundException(UUID eventId) {
        super("No event with id " + eventId);
    }
}

package io.outboxrelay.console.events.entity;

/** Only dead letters (DLT or DEAD) can be replayed. */
public class NotReplayableException extends RuntimeException {

    public NotReplayableException(String message) {
        super(message);
    }
}

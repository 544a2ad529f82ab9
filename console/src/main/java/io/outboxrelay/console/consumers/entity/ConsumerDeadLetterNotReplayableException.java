package io.outboxrelay.console.consumers.entity;

/** A replay asked for a consumer dead letter that is not waiting for an operator (already asked, or replayed). */
public class ConsumerDeadLetterNotReplayableException extends RuntimeException {

    public ConsumerDeadLetterNotReplayableException(String message) {
        super(message);
    }
}

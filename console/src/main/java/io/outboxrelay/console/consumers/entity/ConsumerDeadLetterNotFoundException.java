package io.outboxrelay.console.consumers.entity;

public class ConsumerDeadLetterNotFoundException extends RuntimeException {

    public ConsumerDeadLetterNotFoundException(long id) {
        super("No consumer dead letter with id " + id);
    }
}

package io.outboxrelay.outbox.entity;

/** The outbox row could not be written; the caller's transaction is marked for rollback by it. */
public class OutboxWriteException extends RuntimeException {

    public OutboxWriteException(String message, Throwable cause) {
        super(message, cause);
    }
}

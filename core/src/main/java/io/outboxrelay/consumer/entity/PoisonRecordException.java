package io.outboxrelay.consumer.entity;

/** A record no retry can help: no event id, or a payload that is not JSON. */
public class PoisonRecordException extends RuntimeException {

    public PoisonRecordException(String message) {
        super(message);
    }
}

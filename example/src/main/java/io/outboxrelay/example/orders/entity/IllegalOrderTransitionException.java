package io.outboxrelay.example.orders.entity;

/** An order was asked to do something its status does not allow (pay a cancelled order, say). */
public class IllegalOrderTransitionException extends RuntimeException {

    public IllegalOrderTransitionException(String message) {
        super(message);
    }
}

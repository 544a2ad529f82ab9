package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.entity.IncomingEvent;

import java.util.Optional;

/**
 * The event a handler is working on, for the handler's own log lines and calls downstream:
 * its id, type, W3C traceparent and correlation id. java.util.logging (what Liberty logs
 * through) has no MDC; this is the consumer's log context, set for exactly the handler's run.
 */
public final class ConsumerContext {

    private static final ThreadLocal<IncomingEvent> CURRENT = new ThreadLocal<>();

    private ConsumerContext() {
    }

    public static Optional<IncomingEvent> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    static void run(IncomingEvent event, Runnable handler) {
        CURRENT.set(event);
        try {
            handler.run();
        } finally {
            CURRENT.remove();
        }
    }
}

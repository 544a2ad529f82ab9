package io.outboxrelay.tracing.boundary;

import java.util.Map;

/**
 * One span of an event's way: the relay sending its record, or a consumer processing it. What the span
 * learns is added as it happens; {@link #end()} closes it. When nothing is traced every method does nothing.
 */
public interface MessageSpan {

    MessageSpan NONE = new MessageSpan() {
    };

    /** The W3C context a message carries on from this span ({@code traceparent}, {@code tracestate}); empty when not tracing. */
    default Map<String, String> context() {
        return Map.of();
    }

    /** Where Kafka put the record. */
    default void landed(int partition, long offset) {
    }

    /** How it ended for Outbox Relay: {@code processed}, {@code duplicate}, {@code dead-lettered}, {@code not sent}... */
    default void outcome(String outcome) {
    }

    /** Marks the span failed, with the error. */
    default void failed(Throwable error) {
    }

    /** Makes this span the current one on this thread until the returned scope closes: what runs inside continues it. */
    default Scope makeCurrent() {
        return () -> { };
    }

    default void end() {
    }

    /** A span made current; closing it restores what was current before. */
    interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}

package io.outboxrelay.tracing.boundary;

import io.outboxrelay.tracing.control.OpenTelemetrySpans;
import io.outboxrelay.tracing.control.Spans;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Spans along an event's way when the server runs OpenTelemetry. The append stores the context of the span
 * current in the writing transaction (the HTTP request's, or a consumer's) with the event; the relay sends
 * each record in a {@code send <topic>} span that continues it and puts its own context in the record's
 * {@code traceparent} (and {@code tracestate}) header; a {@link io.outboxrelay.consumer.boundary.ReliableConsumer}
 * handles each record in a {@code process <topic>} span that continues the sender's, current while the
 * handler runs. So one trace reaches from the request to every consumer's handler.
 * <p>
 * On Open Liberty that is MicroProfile Telemetry ({@code mpTelemetry-2.0}, its API made visible to the application
 * with {@code apiTypeVisibility="+third-party"}) with {@code otel.sdk.disabled=false}; on other servers an agent
 * that sets {@code GlobalOpenTelemetry}.
 * Without the API, or with the SDK off, nothing is traced and records carry the stored headers as they are.
 */
@ApplicationScoped
public class Tracing {

    private static final Logger LOG = Logger.getLogger(Tracing.class.getName());
    private static final String API = "io.opentelemetry.api.OpenTelemetry";

    private volatile Spans spans;

    /** Whether spans are made: else every span is {@link MessageSpan#NONE}. */
    public boolean active() {
        return spans().active();
    }

    /** The context of the span current on this thread, as message headers; empty when none or not tracing. */
    public Map<String, String> currentContext() {
        return spans().currentContext();
    }

    /** A started span for sending an event's record, continuing the context {@code parent} holds (by header name). */
    public MessageSpan sending(String topic, String eventId, String key, int attempt, Function<String, String> parent) {
        return spans().sending(topic, eventId, key, attempt, parent);
    }

    /** A started span for processing a record (or replaying its dead letter), continuing its sender's. */
    public MessageSpan processing(String group, String topic, int partition, long offset, String eventId, boolean replay,
                                  Function<String, String> parent) {
        return spans().processing(group, topic, partition, offset, eventId, replay, parent);
    }

    private Spans spans() {
        Spans found = spans;
        if (found == null) {
            synchronized (this) {
                if (spans == null) {
                    spans = find();
                }
                found = spans;
            }
        }
        return found;
    }

    private static Spans find() {
        if (!visible(API)) {
            LOG.fine("OpenTelemetry's API is not visible to the application: Outbox Relay makes no spans");
            return Spans.NONE;
        }
        try {
            Spans found = OpenTelemetrySpans.find();
            LOG.info(found.active() ? "Outbox Relay traces with OpenTelemetry: send and process spans"
                    : "OpenTelemetry's SDK is off (otel.sdk.disabled): Outbox Relay makes no spans");
            return found;
        } catch (LinkageError | RuntimeException unusable) {
            LOG.warning("OpenTelemetry is there but unusable, so Outbox Relay makes no spans: " + unusable);
            return Spans.NONE;
        }
    }

    private static boolean visible(String className) {
        try {
            Class.forName(className, false, Tracing.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError notVisible) {
            return false;
        }
    }
}

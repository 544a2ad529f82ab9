package io.outboxrelay.outbox.control;

import io.outboxrelay.tracing.boundary.RequestTrace;
import io.outboxrelay.tracing.boundary.Tracing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The headers stored with an event: the caller's own, plus the correlation id of the request that caused it
 * and the trace context to continue. With OpenTelemetry tracing that is the context of the span current in
 * the writing transaction (the request's, or the consumer's that handles a record), in the propagators'
 * headers ({@code traceparent}, {@code tracestate}); without it, the request's W3C {@code traceparent} as it
 * came. Outside a request and a span (a timer) only the caller's headers are kept.
 */
@ApplicationScoped
public class EventHeaders {

    public static final String CORRELATION_ID = "correlation-id";
    public static final String TRACEPARENT = "traceparent";

    @Inject
    Instance<RequestTrace> requestTrace;

    @Inject
    Tracing tracing;

    public Map<String, String> of(Map<String, String> callerHeaders) {
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, String> spanContext = tracing.currentContext();
        currentTrace().ifPresent(trace -> {
            trace.correlationId().ifPresent(id -> headers.put(CORRELATION_ID, id));
            if (spanContext.isEmpty()) {
                trace.traceparent().ifPresent(parent -> headers.put(TRACEPARENT, parent));
            }
        });
        headers.putAll(spanContext);
        callerHeaders.forEach((name, value) -> {
            if (name == null || name.isBlank() || value == null) {
                throw new IllegalArgumentException("event headers need a name and a value: " + name + "=" + value);
            }
            if (isReserved(name)) {
                throw new IllegalArgumentException("'" + name + "' is set by Outbox Relay itself and cannot be given");
            }
            headers.put(name, value);
        });
        return headers;
    }

    /**
     * The headers as a JSON object, for the event row's {@code headers} column: written here, names and values being
     * strings, rather than by JSON-B, which took a tenth of an append's time for it in a profile of the orders API
     * (2026-12-06).
     */
    public static String json(Map<String, String> headers) {
        StringBuilder json = new StringBuilder(32 * headers.size() + 2).append('{');
        headers.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            string(json, name).append(':');
            string(json, value);
        });
        return json.append('}').toString();
    }

    /** A JSON string (RFC 8259): quotes, backslashes and control characters escaped, everything else as it is. */
    private static StringBuilder string(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"');
    }

    /** Names the relay writes on every record (CloudEvents, Debezium-style and dead-letter headers). */
    static boolean isReserved(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return lower.startsWith("ce_") || lower.startsWith("dlt_") || lower.equals("id") || lower.equals("aggregate_type")
                || lower.equals("event_version") || lower.equals("content-type");
    }

    private Optional<RequestTrace> currentTrace() {
        try {
            RequestTrace trace = requestTrace.get();
            trace.correlationId(); // touches the proxy: fails here when no request is active
            return Optional.of(trace);
        } catch (ContextNotActiveException noRequest) {
            return Optional.empty();
        }
    }
}

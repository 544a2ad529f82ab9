package io.outboxrelay.tracing.control;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.outboxrelay.tracing.boundary.MessageSpan;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.spi.CDI;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Spans through the OpenTelemetry API, named and tagged after OpenTelemetry's messaging conventions
 * ({@code send <topic>} as PRODUCER, {@code process <topic>} as CONSUMER, {@code messaging.*} attributes).
 * Contexts travel through the server's configured propagators (W3C trace context and baggage by default).
 * The only class of Outbox Relay that names OpenTelemetry's types: it is loaded only when they are visible.
 */
public final class OpenTelemetrySpans implements Spans {

    private static final String INSTRUMENTATION = "io.outboxrelay";

    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> PARTITION = AttributeKey.stringKey("messaging.destination.partition.id");
    private static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    private static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    private static final AttributeKey<String> KEY = AttributeKey.stringKey("messaging.kafka.message.key");
    private static final AttributeKey<String> GROUP = AttributeKey.stringKey("messaging.consumer.group.name");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("outbox.attempt");
    private static final AttributeKey<Boolean> REPLAY = AttributeKey.booleanKey("outbox.replay");
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outbox.outcome");

    /** Reads a parent context from whatever holds the message's headers; the propagator asks by name. */
    private static final TextMapGetter<Function<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> carrier) {
            return List.of();
        }

        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    OpenTelemetrySpans(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    }

    /**
     * The server's OpenTelemetry as spans: MicroProfile Telemetry's (a CDI bean), else the global one an agent
     * sets; {@link Spans#NONE} when that traces nothing (its SDK is off, or no propagator is configured).
     */
    public static Spans find() {
        return of(fromCdi().orElseGet(GlobalOpenTelemetry::get));
    }

    static Spans of(OpenTelemetry openTelemetry) {
        OpenTelemetrySpans spans = new OpenTelemetrySpans(openTelemetry);
        return spans.traces() ? spans : Spans.NONE;
    }

    private static Optional<OpenTelemetry> fromCdi() {
        try {
            Instance<OpenTelemetry> bean = CDI.current().select(OpenTelemetry.class);
            return bean.isResolvable() ? Optional.of(bean.get()) : Optional.empty();
        } catch (IllegalStateException noContainer) {
            return Optional.empty();
        }
    }

    /** A disabled SDK hands out spans without ids and propagates nothing: then there is nothing to do. */
    private boolean traces() {
        Span probe = tracer.spanBuilder("outbox-relay probe").setNoParent().startSpan(); // never ended: never exported
        return probe.getSpanContext().isValid() && !propagator.fields().isEmpty();
    }

    @Override
    public boolean active() {
        return true;
    }

    @Override
    public Map<String, String> currentContext() {
        return inject(Context.current());
    }

    @Override
    public MessageSpan sending(String topic, String eventId, String key, int attempt, Function<String, String> parent) {
        Span span = messaging("send", SpanKind.PRODUCER, topic, parent)
                .setAttribute(MESSAGE_ID, eventId)
                .setAttribute(KEY, key)
                .setAttribute(ATTEMPT, (long) attempt)
                .startSpan();
        return new OpenTelemetrySpan(span);
    }

    @Override
    public MessageSpan processing(String group, String topic, int partition, long offset, String eventId,
                                  boolean replay, Function<String, String> parent) {
        SpanBuilder builder = messaging("process", SpanKind.CONSUMER, topic, parent)
                .setAttribute(GROUP, group)
                .setAttribute(PARTITION, Integer.toString(partition))
                .setAttribute(OFFSET, offset)
                .setAttribute(REPLAY, replay);
        if (eventId != null) {
            builder.setAttribute(MESSAGE_ID, eventId);
        }
        return new OpenTelemetrySpan(builder.startSpan());
    }

    /** {@code <operation> <topic>}, continuing the context the headers hold, with the attributes every messaging span has. */
    private SpanBuilder messaging(String operation, SpanKind kind, String topic, Function<String, String> parent) {
        return tracer.spanBuilder(operation + " " + topic)
                .setParent(propagator.extract(Context.root(), parent, HEADERS))
                .setSpanKind(kind)
                .setAttribute(SYSTEM, "kafka")
                .setAttribute(OPERATION, operation)
                .setAttribute(DESTINATION, topic);
    }

    private Map<String, String> inject(Context context) {
        Map<String, String> headers = new LinkedHashMap<>();
        propagator.inject(context, headers, (carrier, name, value) -> carrier.put(name, value));
        return headers;
    }

    private final class OpenTelemetrySpan implements MessageSpan {

        private final Span span;
        private Map<String, String> context;

        OpenTelemetrySpan(Span span) {
            this.span = span;
        }

        @Override
        public Map<String, String> context() {
            if (context == null) {
                context = Map.copyOf(inject(Context.root().with(span)));
            }
            return context;
        }

        @Override
        public void landed(int partition, long offset) {
            span.setAttribute(PARTITION, Integer.toString(partition));
            span.setAttribute(OFFSET, offset);
        }

        @Override
        public void outcome(String outcome) {
            span.setAttribute(OUTCOME, outcome);
        }

        @Override
        public void failed(Throwable error) {
            span.setAttribute(ERROR_TYPE, error.getClass().getName());
            span.recordException(error);
            span.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        }

        @Override
        public Scope makeCurrent() {
            io.opentelemetry.context.Scope scope = span.makeCurrent();
            return scope::close;
        }

        @Override
        public void end() {
            span.end();
        }
    }
}

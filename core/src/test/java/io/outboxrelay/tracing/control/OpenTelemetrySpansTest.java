package io.outboxrelay.tracing.control;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.outboxrelay.tracing.boundary.MessageSpan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** The span logic against OpenTelemetry's real SDK, exporting into a list. */
class OpenTelemetrySpansTest {

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String REQUEST_SPAN = "00f067aa0ba902b7";
    private static final Map<String, String> STORED = Map.of("traceparent", "00-" + TRACE_ID + "-" + REQUEST_SPAN + "-01",
            "tracestate", "vendor=k7");

    private final List<SpanData> exported = new CopyOnWriteArrayList<>();
    private final OpenTelemetrySdk sdk = sdk(Sampler.parentBased(Sampler.alwaysOff()));
    private final Spans spans = OpenTelemetrySpans.of(sdk);

    @AfterEach
    void close() {
        sdk.close();
    }

    @Test
    void aSendContinuesTheTraceStoredWithTheEventAndHandsItsOwnContextOn() {
        MessageSpan send = spans.sending("order.events", "e-1", "order-7", 1, STORED::get);
        send.landed(2, 41);
        send.end();

        SpanData span = only();
        assertThat(span.getName()).isEqualTo("send order.events");
        assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(span.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(span.getParentSpanId()).isEqualTo(REQUEST_SPAN);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo("e-1");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.destination.partition.id"))).isEqualTo("2");
        assertThat(span.getAttributes().get(AttributeKey.longKey("messaging.kafka.offset"))).isEqualTo(41L);
        assertThat(send.context()).containsEntry("traceparent", "00-" + TRACE_ID + "-" + span.getSpanId() + "-01")
                .containsEntry("tracestate", "vendor=k7");
    }

    @Test
    void aConsumerProcessesInAChildOfTheSendWhichIsCurrentWhileItsHandlerRuns() {
        MessageSpan send = spans.sending("order.events", "e-1", "order-7", 1, STORED::get);
        Map<String, String> recordHeaders = send.context();
        send.end();

        MessageSpan process = spans.processing("inventory", "order.events", 0, 12, "e-1", false, recordHeaders::get);
        Map<String, String> seenByHandler;
        try (MessageSpan.Scope current = process.makeCurrent()) {
            seenByHandler = spans.currentContext(); // what an append inside the handler stores
        }
        process.failed(new IllegalStateException("out of stock"));
        process.end();

        SpanData sent = exported.get(0);
        SpanData processed = exported.get(1);
        assertThat(processed.getName()).isEqualTo("process order.events");
        assertThat(processed.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(processed.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(processed.getParentSpanId()).isEqualTo(sent.getSpanId());
        assertThat(processed.getAttributes().get(AttributeKey.stringKey("messaging.consumer.group.name"))).isEqualTo("inventory");
        assertThat(processed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(seenByHandler.get("traceparent")).contains(processed.getSpanId());
        assertThat(seenByHandler).containsEntry("tracestate", "vendor=k7");
        assertThat(spans.currentContext()).as("nothing current once the handler is done").isEmpty();
    }

    @Test
    void anEventWithoutAStoredTraceIsNotSampledUnderAParentBasedSamplerButStillPropagates() {
        MessageSpan send = spans.sending("order.events", "e-2", "order-8", 1, name -> null);
        send.end();

        assertThat(exported).isEmpty();
        assertThat(send.context().get("traceparent")).endsWith("-00");
    }

    @Test
    void aDisabledSdkOrNoPropagatorMeansNoSpansAtAll() {
        assertThat(OpenTelemetrySpans.of(OpenTelemetry.noop())).isSameAs(Spans.NONE);
        try (OpenTelemetrySdk withoutPropagators = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().build()).build()) {
            assertThat(OpenTelemetrySpans.of(withoutPropagators)).isSameAs(Spans.NONE);
        }
    }

    private SpanData only() {
        assertThat(exported).hasSize(1);
        return exported.get(0);
    }

    private OpenTelemetrySdk sdk(Sampler sampler) {
        SpanExporter toList = new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                exported.addAll(spans);
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode flush() {
                return CompletableResultCode.ofSuccess();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
                        .addSpanProcessor(SimpleSpanProcessor.create(toList)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }
}

package io.outboxrelay.tracing;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.TraceCollector;
import io.outboxrelay.support.TraceCollector.Span;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real traces through the real server, PostgreSQL and Kafka: Liberty's MicroProfile Telemetry exports with its
 * Zipkin exporter to the tests' collector, and one trace reaches from the HTTP request that placed an order,
 * through the relay's send, to both consumer groups' handlers.
 */
class TracingIT {

    private static final String ORDER = """
            {"customerId": "c-trace", "lines": [{"sku": "TRACE-1", "quantity": 1, "unitPrice": 3.00}]}""";

    @Test
    void oneTraceReachesFromTheHttpRequestThroughTheRelayToEveryConsumersHandler() {
        String traceId = hex(16);
        String callerSpan = hex(8);
        Answer created = Api.post("/api/orders", ORDER, Map.of("traceparent", "00-" + traceId + "-" + callerSpan + "-01"));
        assertThat(created.status()).isEqualTo(201);
        String eventId = created.json().getString("eventId");

        List<Span> trace = Awaitility.await("the request's, the send's and both consumers' spans")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> TraceCollector.trace(traceId), spans -> kind(spans, "SERVER").size() == 1
                        && kind(spans, "PRODUCER").size() == 1 && kind(spans, "CONSUMER").size() == 2);

        Span request = kind(trace, "SERVER").get(0);
        assertThat(request.parentId()).as("the server span continues the caller's").isEqualTo(callerSpan);

        Span send = kind(trace, "PRODUCER").get(0);
        assertThat(send.name()).isEqualTo("send order.events");
        assertThat(send.tags()).containsEntry("messaging.message.id", eventId)
                .containsEntry("messaging.destination.name", "order.events");
        assertThat(ancestors(send, trace)).as("the send continues the request that appended the event").contains(request.id());
        String stored = (String) Database.rows("SELECT headers->>'traceparent' AS trace FROM outbox_event WHERE event_id = ?",
                UUID.fromString(eventId)).get(0).get("trace");
        assertThat(stored).as("the outbox row holds the appending request's context")
                .isEqualTo("00-" + traceId + "-" + send.parentId() + "-01");

        ConsumerRecord<String, String> record = recordOf(eventId);
        assertThat(Kafka.header(record, "traceparent")).as("the record carries the send's context")
                .isEqualTo("00-" + traceId + "-" + send.id() + "-01");
        assertThat(send.tags()).containsEntry("messaging.destination.partition.id", Integer.toString(record.partition()))
                .containsEntry("messaging.kafka.offset", Long.toString(record.offset()));

        List<Span> processed = kind(trace, "CONSUMER");
        assertThat(processed).extracting(span -> span.tags().get("messaging.consumer.group.name"))
                .containsExactlyInAnyOrder("inventory", "notifications");
        assertThat(processed).allSatisfy(span -> {
            assertThat(span.name()).isEqualTo("process order.events");
            assertThat(span.parentId()).as("each consumer's span is a child of the send").isEqualTo(send.id());
            assertThat(span.tags()).containsEntry("messaging.message.id", eventId)
                    .containsEntry("messaging.kafka.offset", Long.toString(record.offset()))
                    .containsEntry("outbox.outcome", "processed");
        });
    }

    @Test
    void aRequestThatIsNotSampledLeavesNoSpansButStillHandsItsTraceOn() {
        String traceId = hex(16);
        Answer created = Api.post("/api/orders", ORDER, Map.of("traceparent", "00-" + traceId + "-" + hex(8) + "-00"));
        assertThat(created.status()).isEqualTo(201);
        String eventId = created.json().getString("eventId");

        ConsumerRecord<String, String> record = recordOf(eventId);
        assertThat(Kafka.header(record, "traceparent")).startsWith("00-" + traceId + "-").endsWith("-00");
        Awaitility.await("both consumers processed it").atMost(Duration.ofSeconds(90))
                .until(() -> Database.count("SELECT count(*) FROM consumed_event WHERE event_id = ?", UUID.fromString(eventId)) == 2);
        // a sampled request of the same server, sent after, is exported: had this one been sampled it would be there by then
        String laterTrace = hex(16);
        Api.post("/api/orders", ORDER, Map.of("traceparent", "00-" + laterTrace + "-" + hex(8) + "-01"));
        Awaitility.await("the later, sampled request's spans").atMost(Duration.ofSeconds(90))
                .until(() -> kind(TraceCollector.trace(laterTrace), "CONSUMER").size() == 2);
        assertThat(TraceCollector.trace(traceId)).isEmpty();
    }

    private static ConsumerRecord<String, String> recordOf(String eventId) {
        return Kafka.consumeUntil("order.events", "the order's record",
                        records -> records.stream().anyMatch(r -> eventId.equals(Kafka.header(r, "ce_id"))))
                .stream().filter(r -> eventId.equals(Kafka.header(r, "ce_id"))).findFirst().orElseThrow();
    }

    private static List<Span> kind(List<Span> spans, String kind) {
        return spans.stream().filter(span -> kind.equals(span.kind())).toList();
    }

    /** The ids of the span's parent, its parent's parent... as far as the trace holds them. */
    private static List<String> ancestors(Span span, List<Span> trace) {
        List<String> ids = new ArrayList<>();
        String parent = span.parentId();
        while (parent != null && !ids.contains(parent)) {
            ids.add(parent);
            String current = parent;
            parent = trace.stream().filter(candidate -> current.equals(candidate.id())).map(Span::parentId)
                    .filter(Objects::nonNull).findFirst().orElse(null);
        }
        return ids;
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        random[0] |= 1; // never all zero
        return HexFormat.of().formatHex(random);
    }
}

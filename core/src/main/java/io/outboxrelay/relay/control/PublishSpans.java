package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.tracing.boundary.MessageSpan;
import io.outboxrelay.tracing.boundary.Tracing;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code send <topic>} span of each record a round hands to Kafka, when the server traces: it continues the
 * trace stored with the event and puts its own context on the record, so the consumers continue it. It ends
 * when the round has Kafka's answer, with the partition and offset, or the error.
 */
public final class PublishSpans {

    public static final PublishSpans NONE = new PublishSpans(Map.of());

    private final Map<Long, MessageSpan> spans;

    private PublishSpans(Map<Long, MessageSpan> spans) {
        this.spans = spans;
    }

    /** Starts a span per record (keyed by row id) and writes its context into the record's headers. */
    static PublishSpans start(Tracing tracing, List<ClaimedEvent> events, Map<Long, ProducerRecord<String, byte[]>> records) {
        if (!tracing.active()) {
            return NONE;
        }
        Map<Long, MessageSpan> spans = new HashMap<>();
        for (ClaimedEvent event : events) {
            ProducerRecord<String, byte[]> record = records.get(event.id());
            MessageSpan span = tracing.sending(record.topic(), event.eventId().toString(), event.aggregateId(),
                    event.attempts() + 1, event.headers()::get);
            carry(record.headers(), span.context());
            spans.put(event.id(), span);
        }
        return new PublishSpans(spans);
    }

    /** The span's context replaces the stored one: the consumer's span is then a child of this send. */
    static void carry(Headers headers, Map<String, String> context) {
        context.forEach((name, value) -> {
            headers.remove(name);
            headers.add(name, value.getBytes(StandardCharsets.UTF_8));
        });
    }

    void end(Map<Long, PublishResult> results) {
        spans.forEach((id, span) -> {
            PublishResult result = results.get(id);
            if (result instanceof PublishResult.Acked acked) {
                span.landed(acked.partition(), acked.offset());
            } else if (result instanceof PublishResult.Failed failed) {
                span.failed(failed.error());
            } else if (result instanceof PublishResult.NotSent notSent) {
                span.outcome("not sent: " + notSent.reason());
            }
            span.end();
        });
    }
}

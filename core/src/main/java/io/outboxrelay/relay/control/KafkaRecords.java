package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * The Kafka record of an event: key = aggregate id, value = payload JSON, headers in the
 * CloudEvents Kafka binding (binary mode) plus Debezium-outbox style {@code id} and
 * {@code aggregate_type}, plus the headers stored with the event.
 */
public final class KafkaRecords {

    public static final String DLT_SUFFIX = ".DLT";

    private KafkaRecords() {
    }

    public static ProducerRecord<String, byte[]> of(ClaimedEvent event, String source) {
        return new Batch(source).of(event);
    }

    /**
     * Makes the records of one batch. A relay makes tens of thousands a second, each with ten headers, so what the
     * records share is encoded once: the constant headers and the source are made once for the batch, an event's id
     * once for its two headers, and a creation time once for the events that share it (those of one transaction do).
     * The headers are shared, not copied: Kafka's headers are not changed once made.
     */
    public static final class Batch {

        private static final Header SPEC_VERSION = header("ce_specversion", "1.0");
        private static final Header CONTENT_TYPE = header("content-type", "application/json");
        private static final int OWN_HEADERS = 10;

        private final Header source;
        private OffsetDateTime lastCreatedAt;
        private Header lastTime;

        public Batch(String source) {
            this.source = header("ce_source", source);
        }

        public ProducerRecord<String, byte[]> of(ClaimedEvent event) {
            byte[] id = event.eventId().toString().getBytes(StandardCharsets.US_ASCII);
            Header[] headers = new Header[OWN_HEADERS + event.headers().size()];
            headers[0] = SPEC_VERSION;
            headers[1] = new RecordHeader("ce_id", id);
            headers[2] = header("ce_type", event.eventType());
            headers[3] = source;
            headers[4] = header("ce_subject", event.aggregateId());
            headers[5] = time(event.createdAt());
            headers[6] = CONTENT_TYPE;
            headers[7] = new RecordHeader("id", id);
            headers[8] = header("aggregate_type", event.aggregateType());
            headers[9] = header("event_version", Integer.toString(event.eventVersion()));
            int next = OWN_HEADERS;
            for (Map.Entry<String, String> stored : event.headers().entrySet()) {
                headers[next++] = header(stored.getKey(), stored.getValue());
            }
            return new ProducerRecord<>(event.topic(), null, event.aggregateId(),
                    event.payload().getBytes(StandardCharsets.UTF_8), new RecordHeaders(headers));
        }

        private Header time(OffsetDateTime createdAt) {
            if (!createdAt.equals(lastCreatedAt)) {
                lastTime = header("ce_time", DateTimeFormatter.ISO_INSTANT.format(createdAt.toInstant()));
                lastCreatedAt = createdAt;
            }
            return lastTime;
        }
    }

    /** The same record for {@code <topic>.DLT}, with why and when it failed. */
    public static ProducerRecord<String, byte[]> deadLetter(ClaimedEvent event, String source, Throwable error,
                                                            int attempts, Instant now) {
        ProducerRecord<String, byte[]> original = of(event, source);
        Headers headers = original.headers();
        Instant firstFailure = event.firstFailedAt() == null ? now : event.firstFailedAt().toInstant();
        add(headers, "dlt_original_topic", event.topic());
        add(headers, "dlt_error_class", error.getClass().getName());
        add(headers, "dlt_error_message", String.valueOf(error.getMessage()));
        add(headers, "dlt_attempts", Integer.toString(attempts));
        add(headers, "dlt_first_failure_at", DateTimeFormatter.ISO_INSTANT.format(firstFailure));
        add(headers, "dlt_last_failure_at", DateTimeFormatter.ISO_INSTANT.format(now));
        add(headers, "dlt_event_id", event.eventId().toString());
        return new ProducerRecord<>(event.topic() + DLT_SUFFIX, null, original.key(), original.value(), headers);
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(header(name, value));
    }

    private static Header header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}

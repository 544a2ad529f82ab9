package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

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
        Headers headers = new RecordHeaders();
        add(headers, "ce_specversion", "1.0");
        add(headers, "ce_id", event.eventId().toString());
        add(headers, "ce_type", event.eventType());
        add(headers, "ce_source", source);
        add(headers, "ce_subject", event.aggregateId());
        add(headers, "ce_time", DateTimeFormatter.ISO_INSTANT.format(event.createdAt().toInstant()));
        add(headers, "content-type", "application/json");
        add(headers, "id", event.eventId().toString());
        add(headers, "aggregate_type", event.aggregateType());
        add(headers, "event_version", Integer.toString(event.eventVersion()));
        event.headers().forEach((name, value) -> add(headers, name, value));
        return new ProducerRecord<>(event.topic(), null, event.aggregateId(),
                event.payload().getBytes(StandardCharsets.UTF_8), headers);
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
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}

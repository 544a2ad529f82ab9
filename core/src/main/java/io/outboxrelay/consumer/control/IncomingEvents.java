package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.PoisonRecordException;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

/** Reads the event out of a Kafka record written by the relay (or any CloudEvents producer). */
public final class IncomingEvents {

    /** Looked up once: {@code Json.createReader} looks the JSON provider up again at each call. */
    private static final JsonReaderFactory JSON = Json.createReaderFactory(Map.of());

    private IncomingEvents() {
    }

    public static IncomingEvent of(ConsumerRecord<String, String> record) {
        String id = eventIdHeader(record);
        if (id == null) {
            throw new PoisonRecordException("the record has no event id (neither a ce_id nor an id header)");
        }
        UUID eventId;
        try {
            eventId = UUID.fromString(id);
        } catch (IllegalArgumentException notUuid) {
            throw new PoisonRecordException("the record's event id is not a UUID: " + truncated(id));
        }
        if (record.value() == null || !isJson(record.value())) {
            throw new PoisonRecordException("the payload of event " + eventId + " is not JSON");
        }
        return new IncomingEvent(eventId, header(record, "ce_type"), record.key(), record.value(),
                header(record, "traceparent"), header(record, "correlation-id"));
    }

    /** The record's event id as its headers give it (CloudEvents' {@code ce_id}, else Debezium-style {@code id}), unchecked; null when neither. */
    public static String eventIdHeader(ConsumerRecord<?, ?> record) {
        String id = header(record, "ce_id");
        return id != null ? id : header(record, "id");
    }

    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static boolean isJson(String text) {
        try (JsonReader reader = JSON.createReader(new StringReader(text))) {
            reader.readValue();
            return true;
        } catch (JsonException notJson) {
            return false;
        }
    }

    private static String truncated(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}

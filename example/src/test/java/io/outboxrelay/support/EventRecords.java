package io.outboxrelay.support;

import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.StringReader;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static io.outboxrelay.support.Kafka.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** What a consumer finds in a record the relay published: the event's key, body and CloudEvents headers. */
public final class EventRecords {

    private EventRecords() {
    }

    /** The event ids (ce_id) of the records, in the order given. */
    public static List<String> eventIds(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(record -> header(record, "ce_id")).toList();
    }

    /** The record carries the outbox row's event: key, JSON body, CloudEvents and outbox headers, stored headers. */
    public static void assertCarriesEvent(ConsumerRecord<String, String> record, Inserted inserted, Row row) {
        Event event = inserted.event();
        String eventId = inserted.eventId().toString();
        assertThat(record.key()).as("key of " + eventId).isEqualTo(event.aggregateId());
        assertThat(json(record.value())).as("body of " + eventId).isEqualTo(json(event.payload()));
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_id")).isEqualTo(eventId);
        assertThat(header(record, "ce_type")).isEqualTo(event.eventType());
        assertThat(header(record, "ce_source")).isNotBlank();
        assertThat(header(record, "ce_subject")).isEqualTo(event.aggregateId());
        assertThat(OffsetDateTime.parse(header(record, "ce_time")).toInstant())
                .as("ce_time of " + eventId + " is when the event was written (to the precision it is sent with)")
                .isCloseTo(row.createdAt(), within(1, ChronoUnit.SECONDS));
        assertThat(header(record, "content-type")).isEqualTo("application/json");
        assertThat(header(record, "id")).isEqualTo(eventId);
        assertThat(header(record, "aggregate_type")).isEqualTo(event.aggregateType());
        assertThat(header(record, "event_version")).isEqualTo("1");
        json(event.headers()).asJsonObject().forEach((name, value) -> assertThat(header(record, name))
                .as("stored header " + name + " of " + eventId).isEqualTo(((JsonString) value).getString()));
    }

    /** JSON text parsed, so that documents differing only in whitespace or key order compare equal. */
    public static JsonValue json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readValue();
        }
    }
}

package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaRecordsTest {

    private final UUID eventId = UUID.fromString("01a22c4e-2e34-7685-b333-fb431cb2d459");
    private final ClaimedEvent event = new ClaimedEvent(7, eventId, "Order", "order-1", "OrderPaid", 1, "order.events",
            "{\"orderId\":\"order-1\"}", Map.of("correlation-id", "checkout-9"), 0,
            OffsetDateTime.of(2026, 11, 30, 10, 0, 0, 0, ZoneOffset.UTC), null);

    @Test
    void theRecordIsKeyedByAggregateAndCarriesCloudEventsHeaders() {
        ProducerRecord<String, byte[]> record = KafkaRecords.of(event, "/outbox-relay");

        assertThat(record.topic()).isEqualTo("order.events");
        assertThat(record.key()).isEqualTo("order-1");
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("{\"orderId\":\"order-1\"}");
        assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(header(record, "ce_id")).isEqualTo(eventId.toString());
        assertThat(header(record, "ce_type")).isEqualTo("OrderPaid");
        assertThat(header(record, "ce_source")).isEqualTo("/outbox-relay");
        assertThat(header(record, "ce_subject")).isEqualTo("order-1");
        assertThat(header(record, "ce_time")).isEqualTo("2026-11-30T10:00:00Z");
        assertThat(header(record, "content-type")).isEqualTo("application/json");
        assertThat(header(record, "id")).isEqualTo(eventId.toString());
        assertThat(header(record, "aggregate_type")).isEqualTo("Order");
        assertThat(header(record, "correlation-id")).isEqualTo("checkout-9");
    }

    @Test
    void aBatchsRecordsEachCarryTheirOwnEventsIdAndTime() {
        OffsetDateTime later = event.createdAt().plusNanos(1_000);
        ClaimedEvent second = new ClaimedEvent(8, UUID.fromString("01a22c4e-2e34-7685-b333-fb431cb2d460"), "Order",
                "order-2", "OrderPaid", 2, "order.events", "{}", Map.of(), 0, event.createdAt(), null);
        ClaimedEvent third = new ClaimedEvent(9, UUID.fromString("01a22c4e-2e34-7685-b333-fb431cb2d461"), "Order",
                "order-1", "OrderShipped", 1, "order.events", "{}", Map.of(), 0, later, null);
        KafkaRecords.Batch batch = new KafkaRecords.Batch("/outbox-relay");

        List<ProducerRecord<String, byte[]>> records = List.of(batch.of(event), batch.of(second), batch.of(third));

        assertThat(records).extracting(record -> header(record, "ce_time")).containsExactly(
                "2026-11-30T10:00:00Z", "2026-11-30T10:00:00Z", "2026-11-30T10:00:00.000001Z");
        assertThat(records).extracting(record -> header(record, "ce_id") + " " + header(record, "id")).containsExactly(
                eventId + " " + eventId, second.eventId() + " " + second.eventId(), third.eventId() + " " + third.eventId());
        assertThat(records).extracting(record -> header(record, "event_version")).containsExactly("1", "2", "1");
        assertThat(records).extracting(record -> header(record, "ce_source")).containsOnly("/outbox-relay");
        assertThat(records.get(0).headers().lastHeader("correlation-id")).isNotNull();
        assertThat(records.get(1).headers().lastHeader("correlation-id")).as("only the event that stored it").isNull();
    }

    @Test
    void theDeadLetterKeepsTheRecordAndSaysWhyAndWhen() {
        ProducerRecord<String, byte[]> letter = KafkaRecords.deadLetter(event, "/outbox-relay",
                new RecordTooLargeException("the message is 9000 bytes"), 1, Instant.parse("2026-11-30T10:05:00Z"));

        assertThat(letter.topic()).isEqualTo("order.events.DLT");
        assertThat(letter.key()).isEqualTo("order-1");
        assertThat(header(letter, "ce_id")).isEqualTo(eventId.toString());
        assertThat(header(letter, "dlt_original_topic")).isEqualTo("order.events");
        assertThat(header(letter, "dlt_error_class")).isEqualTo(RecordTooLargeException.class.getName());
        assertThat(header(letter, "dlt_error_message")).contains("9000 bytes");
        assertThat(header(letter, "dlt_attempts")).isEqualTo("1");
        assertThat(header(letter, "dlt_first_failure_at")).isEqualTo("2026-11-30T10:05:00Z");
        assertThat(header(letter, "dlt_last_failure_at")).isEqualTo("2026-11-30T10:05:00Z");
        assertThat(header(letter, "dlt_event_id")).isEqualTo(eventId.toString());
    }

    private static String header(ProducerRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}

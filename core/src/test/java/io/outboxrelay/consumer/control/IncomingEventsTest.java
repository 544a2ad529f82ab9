package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.PoisonRecordException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IncomingEventsTest {

    private final UUID eventId = UUID.randomUUID();

    @Test
    void theEventIdComesFromTheCloudEventsHeader() {
        ConsumerRecord<String, String> record = record("{\"orderId\": \"o-1\"}");
        record.headers().add("ce_id", bytes(eventId.toString())).add("ce_type", bytes("OrderCreated"));

        IncomingEvent event = IncomingEvents.of(record);

        assertThat(event.eventId()).isEqualTo(eventId);
        assertThat(event.eventType()).isEqualTo("OrderCreated");
        assertThat(event.aggregateId()).isEqualTo("o-1");
    }

    @Test
    void theTraceContextTheEventTravelledWithComesAlong() {
        ConsumerRecord<String, String> record = record("{}");
        record.headers().add("ce_id", bytes(eventId.toString()))
                .add("traceparent", bytes("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
                .add("correlation-id", bytes("checkout-4711"));

        IncomingEvent event = IncomingEvents.of(record);

        assertThat(event.traceparent()).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        assertThat(event.correlationId()).isEqualTo("checkout-4711");
    }

    @Test
    void aDebeziumStyleIdHeaderServesToo() {
        ConsumerRecord<String, String> record = record("{}");
        record.headers().add("id", bytes(eventId.toString()));

        assertThat(IncomingEvents.of(record).eventId()).isEqualTo(eventId);
    }

    @Test
    void recordsWithoutAUsableEventIdOrWithoutJsonArePoison() {
        assertThatThrownBy(() -> IncomingEvents.of(record("{}")))
                .isInstanceOf(PoisonRecordException.class).hasMessageContaining("no event id");

        ConsumerRecord<String, String> notUuid = record("{}");
        notUuid.headers().add("ce_id", bytes("42"));
        assertThatThrownBy(() -> IncomingEvents.of(notUuid)).isInstanceOf(PoisonRecordException.class);

        ConsumerRecord<String, String> notJson = record("<xml/>");
        notJson.headers().add("ce_id", bytes(eventId.toString()));
        assertThatThrownBy(() -> IncomingEvents.of(notJson))
                .isInstanceOf(PoisonRecordException.class).hasMessageContaining("not JSON");
    }

    private static ConsumerRecord<String, String> record(String value) {
        return new ConsumerRecord<>("order.events", 0, 7L, "o-1", value);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

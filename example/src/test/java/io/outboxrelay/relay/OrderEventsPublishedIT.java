package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole write path: an order placed through the API reaches Kafka, published by the relay. */
class OrderEventsPublishedIT {

    @Test
    void anOrdersEventsReachKafkaInOrderWithTheRequestsCorrelationId() {
        Answer created = Api.post("/api/orders", """
                {"customerId": "c-e2e", "lines": [{"sku": "MUG-1", "quantity": 1, "unitPrice": 8.00}]}""",
                Map.of("X-Correlation-Id", "e2e-42"));
        String orderId = created.json().getString("orderId");
        Api.send(HttpRequest.newBuilder(Api.uri("/api/orders/" + orderId + "/payment"))
                .POST(HttpRequest.BodyPublishers.noBody()), Map.of("X-Correlation-Id", "e2e-42"));

        List<Row> rows = Database.rows("SELECT id FROM outbox_event WHERE aggregate_id = ? ORDER BY id", orderId).stream()
                .map(row -> OutboxRows.awaitStatus(((Number) row.get("id")).longValue(), "SENT"))
                .toList();

        List<ConsumerRecord<String, String>> records = Kafka.readAll("order.events").stream()
                .filter(record -> orderId.equals(record.key()))
                .toList();
        assertThat(records).extracting(record -> Kafka.header(record, "ce_type"))
                .containsExactly("OrderCreated", "OrderPaid");
        assertThat(records).extracting(record -> Kafka.header(record, "ce_id"))
                .containsExactly(rows.get(0).eventId().toString(), rows.get(1).eventId().toString());
        assertThat(records).allSatisfy(record -> assertThat(Kafka.header(record, "correlation-id")).isEqualTo("e2e-42"));
        assertThat(records.get(0).partition()).isEqualTo(rows.get(0).kafkaPartition());
        assertThat(records.get(0).offset()).isEqualTo(rows.get(0).kafkaOffset());
        assertThat(UUID.fromString(created.json().getString("eventId"))).isEqualTo(rows.get(0).eventId());
    }
}

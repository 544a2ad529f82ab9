package io.outboxrelay.example.inventory;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inventory consumer on the real server and Kafka: an order reserves its stock exactly once,
 * however often its event arrives, and records it cannot handle go to its dead-letter topic
 * without stopping the records behind them.
 */
class InventoryConsumerIT {

    private static final String TOPIC = "order.events";
    private static final String DLT = "order.events.inventory.DLT";
    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @Test
    void anOrderReservesItsStockOnceAndItsCancellationReleasesItOnce() {
        String sku = sku();
        String orderId = createOrder(sku, 3);
        awaitReserved(sku, 3);
        assertThat(consumedCount(orderId, "OrderCreated")).isEqualTo(1);

        Answer cancelled = Api.postEmpty("/api/orders/" + orderId + "/cancellation");
        assertThat(cancelled.status()).isEqualTo(200);

        awaitReserved(sku, 0);
        assertThat(consumedCount(orderId, "OrderCancelled")).isEqualTo(1);
    }

    @Test
    void theSameEventDeliveredTwiceChangesStockOnce() {
        String sku = sku();
        String orderId = createOrder(sku, 2);
        awaitReserved(sku, 2);
        ConsumerRecord<String, String> original = Kafka.readAll(TOPIC).stream()
                .filter(record -> orderId.equals(record.key()))
                .findFirst().orElseThrow();

        RecordMetadata duplicate = Kafka.produce(TOPIC, original.key(), original.value(), headersOf(original));
        Kafka.awaitCommittedPast("inventory", TOPIC, duplicate.partition(), duplicate.offset());

        assertThat(reserved(sku)).as("the duplicate had no effect").isEqualTo(2);
        assertThat(consumedCount(orderId, "OrderCreated")).isEqualTo(1);
    }

    @Test
    void aRecordWithoutAnEventIdGoesToTheDeadLetterTopicWithoutEffect() {
        String sku = sku();
        String key = "poison-" + UUID.randomUUID();

        RecordMetadata poison = Kafka.produce(TOPIC, key, lineJson(sku, 4), Map.of("ce_type", "OrderCreated"));
        Kafka.awaitCommittedPast("inventory", TOPIC, poison.partition(), poison.offset());

        ConsumerRecord<String, String> letter = deadLetter(key);
        assertThat(Kafka.header(letter, "dlt_error_message")).contains("no event id");
        assertThat(Kafka.header(letter, "dlt_original_offset")).isEqualTo(Long.toString(poison.offset()));
        assertThat(Kafka.header(letter, "dlt_attempts")).isEqualTo("1");
        assertThat(reserved(sku)).isZero();
    }

    @Test
    void aHandlerThatAlwaysFailsIsRetriedThenDeadLetteredAndTheRecordsBehindItAreHandled() {
        String sku = sku();
        String key = "always-fails-" + UUID.randomUUID();
        String eventId = UUID.randomUUID().toString();
        // releasing stock that was never reserved fails on every attempt
        RecordMetadata failing = Kafka.produce(TOPIC, key, lineJson(sku, 5),
                Map.of("ce_id", eventId, "ce_type", "OrderCancelled"));
        String nextSku = sku();
        Kafka.produce(TOPIC, key, lineJson(nextSku, 1), Map.of("ce_id", UUID.randomUUID().toString(), "ce_type", "OrderCreated"));

        awaitReserved(nextSku, 1);
        ConsumerRecord<String, String> letter = deadLetter(key);
        assertThat(Kafka.header(letter, "dlt_event_id")).isEqualTo(eventId);
        assertThat(Kafka.header(letter, "dlt_attempts")).isEqualTo("3");
        assertThat(Kafka.header(letter, "dlt_consumer_group")).isEqualTo("inventory");
        assertThat(Kafka.header(letter, "dlt_original_topic")).isEqualTo(TOPIC);
        assertThat(Kafka.header(letter, "dlt_original_partition")).isEqualTo(Integer.toString(failing.partition()));
        assertThat(Kafka.header(letter, "dlt_stack_trace")).isNotBlank();
        assertThat(Kafka.header(letter, "dlt_first_failure_at")).isNotBlank();
        assertThat(Kafka.header(letter, "dlt_last_failure_at")).isNotBlank();
        assertThat(reserved(sku)).isZero();
        assertThat(Database.count(
                "SELECT count(*) FROM consumed_event WHERE consumer_group = 'inventory' AND event_id = ?::uuid", eventId))
                .as("the failed handling left no trace").isZero();
    }

    private static String createOrder(String sku, int quantity) {
        Answer created = Api.post("/api/orders", """
                {"customerId": "c-inventory", "lines": [{"sku": "%s", "quantity": %d, "unitPrice": 5.00}]}"""
                .formatted(sku, quantity));
        assertThat(created.status()).isEqualTo(201);
        return created.json().getString("orderId");
    }

    private static String lineJson(String sku, int quantity) {
        return "{\"lines\": [{\"sku\": \"" + sku + "\", \"quantity\": " + quantity + ", \"unitPrice\": 1.00}]}";
    }

    private static ConsumerRecord<String, String> deadLetter(String key) {
        List<ConsumerRecord<String, String>> letters = Kafka.consumeUntil(DLT, "a dead letter keyed " + key,
                records -> records.stream().anyMatch(record -> key.equals(record.key())));
        return letters.stream().filter(record -> key.equals(record.key())).findFirst().orElseThrow();
    }

    private static void awaitReserved(String sku, int quantity) {
        Awaitility.await("stock of " + sku + " reserved = " + quantity)
                .atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> reserved(sku) == quantity);
    }

    private static long reserved(String sku) {
        List<Map<String, Object>> rows = Database.rows("SELECT reserved FROM inventory_stock WHERE sku = ?", sku);
        return rows.isEmpty() ? 0 : ((Number) rows.get(0).get("reserved")).longValue();
    }

    private static long consumedCount(String orderId, String eventType) {
        return Database.count("""
                SELECT count(*) FROM consumed_event c JOIN outbox_event e ON e.event_id = c.event_id
                 WHERE c.consumer_group = 'inventory' AND e.aggregate_id = ? AND e.event_type = ?""", orderId, eventType);
    }

    private static Map<String, String> headersOf(ConsumerRecord<String, String> record) {
        Map<String, String> headers = new LinkedHashMap<>();
        record.headers().forEach(header -> headers.put(header.key(), Kafka.header(record, header.key())));
        return headers;
    }

    private static String sku() {
        return "SKU-" + UUID.randomUUID();
    }
}

package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Topology (a), embedded: someone else's application (payments, plain JDBC, its own Flyway history) adds the
 * core jar and nothing else, on a Liberty server whose server.xml includes the documented fragment. Its relay
 * runs inside it. The append joins the payment's JTA transaction, its events reach Kafka in the documented
 * record format, and its ReliableConsumer books each payment once, even when Kafka delivers it twice. The relay polls
 * only every ten minutes and does not listen for notifications, so an event reaches Kafka within the test's patience
 * only because the commit woke the server's own relay.
 */
class AdoptionEmbeddedIT {

    private static final String TOPIC = Kafka.uniqueTopic("adoption-embedded-payments");
    private static final String GROUP = "ledger-" + TOPIC;
    private static final Duration RELAY_POLL = Duration.ofMinutes(10);
    private static AdoptionServer server;

    @BeforeAll
    static void deployThePaymentsApplication() throws Exception {
        Kafka.createTopic(TOPIC, 3);
        server = AdoptionServer.start("outbox-adoption-embedded", "adoption_embedded", false, List.of(
                new AdoptionServer.App("payments", AdoptionServer.paymentsWar(), "/payments", Map.of(
                        "outbox.topic.Payment", TOPIC,
                        "outbox.relay.poll-interval-ms", String.valueOf(RELAY_POLL.toMillis()),
                        "outbox.relay.listen", "false",
                        "mp.messaging.incoming.ledger.topic", TOPIC,
                        "mp.messaging.incoming.ledger.group.id", GROUP))));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRolledBackPaymentLeavesNeitherItsRowNorItsEvent() throws Exception {
        String payer = "rollback-" + UUID.randomUUID();
        HttpResponse<String> refused = PaymentRecords.pay(server, payer, true);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
        assertThat(server.count("SELECT count(*) FROM payment WHERE payer = ?", payer)).isZero();
        assertThat(server.count("SELECT count(*) FROM outbox_event WHERE payload->>'payer' = ?", payer))
                .as("the event rolled back with the payment").isZero();
        assertThat(server.count("SELECT count(*) FROM payments_schema_history WHERE success")).as("the host's own history")
                .isPositive();
        assertThat(server.count("SELECT count(*) FROM outbox_relay_schema_history WHERE success"))
                .as("Outbox Relay's history, apart from the host's").isPositive();
    }

    @Test
    void aPaymentsEventReachesKafkaInTheDocumentedFormatAndIsBookedOnceThoughDeliveredTwice() throws Exception {
        String payer = "payer-" + UUID.randomUUID();
        HttpResponse<String> paid = PaymentRecords.pay(server, payer, false);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
        JsonObject receipt = Json.createReader(new StringReader(paid.body())).readObject();
        String paymentId = receipt.getString("paymentId");
        String eventId = receipt.getString("eventId");

        ConsumerRecord<String, String> record = PaymentRecords.recordOf(TOPIC, eventId);
        PaymentRecords.assertDocumentedRecord(record, paymentId, eventId, payer);

        Awaitility.await("the ledger books the payment").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM ledger_entry WHERE event_id = ?::uuid", eventId) == 1);
        assertThat(server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ?::uuid AND status = 'SENT'", eventId))
                .isEqualTo(1);

        Map<String, String> headers = new java.util.LinkedHashMap<>();
        record.headers().forEach(header -> headers.put(header.key(), new String(header.value(), java.nio.charset.StandardCharsets.UTF_8)));
        var again = Kafka.produce(TOPIC, record.partition(), record.key(), record.value(), headers);
        Kafka.awaitCommittedPast(GROUP, TOPIC, again.partition(), again.offset());
        assertThat(server.count("SELECT count(*) FROM ledger_entry WHERE event_id = ?::uuid", eventId))
                .as("the redelivered event had no second effect").isEqualTo(1);
    }

    /**
     * The core sits in the application's own class loader, where lz4-java would not choose its native codec by
     * itself; the relay loads it before it makes its producer, and says so.
     */
    @Test
    void itsRelayCompressesWithTheNativeLz4CodecThoughTheCoreIsInsideTheApplication() throws Exception {
        HttpResponse<String> paid = PaymentRecords.pay(server, "lz4-" + UUID.randomUUID(), false);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
        String eventId = Json.createReader(new StringReader(paid.body())).readObject().getString("eventId");

        PaymentRecords.recordOf(TOPIC, eventId); // published: the relay's producer exists

        assertThat(server.log()).as("the server's log").contains("Kafka's LZ4 compression: native");
    }
}

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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CDC mode ({@code outbox.publisher=cdc}) in someone else's application: the payments WAR with the core's jars, the
 * cdc jar and the console's (for an operator's replay), unchanged code, on a Liberty server of its own. Debezium's
 * embedded engine streams the outbox's inserts from PostgreSQL's write-ahead log (a slot of this test's own) and the
 * relay publishes them as it would have polled them. The polling relay's handover is a day here, so every appended
 * event these tests see published came through the change stream; a replayed dead letter, which the stream does not
 * bring again, is the polling relay's at once.
 */
class CdcModeIT {

    private static final String TOPIC = Kafka.uniqueTopic("cdc-payments");
    private static final String PARCELS = Kafka.uniqueTopic("cdc-parcels");
    /** Refuses records over 2 KB, so an 8 KB event is one Kafka refuses for good. */
    private static final String SMALL = Kafka.uniqueTopic("cdc-small");
    /** As small at first; an operator then lets it take larger records and replays what it refused. */
    private static final String MENDED = Kafka.uniqueTopic("cdc-mended");
    private static final String GROUP = "ledger-" + TOPIC;
    private static final String SLOT = "cdc_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private static final String NAME = "outbox-adoption-cdc";
    private static final String DATABASE = "adoption_cdc";
    private static AdoptionServer server;

    @BeforeAll
    static void deployThePaymentsApplicationInCdcMode() throws Exception {
        Kafka.createTopic(TOPIC, 3);
        Kafka.createTopic(PARCELS, 3);
        Kafka.createTopic(SMALL, 1, Map.of("max.message.bytes", "2048"));
        Kafka.createTopic(SMALL + ".DLT", 1);
        Kafka.createTopic(MENDED, 1, Map.of("max.message.bytes", "2048"));
        Kafka.createTopic(MENDED + ".DLT", 1);
        server = start(true);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        AdoptionServer.freshDatabase(DATABASE); // and its slot, which would keep WAL for ever
    }

    @Test
    void aPaymentIsPublishedFromTheWriteAheadLogAsTheSameRecordAndBecomesSentWhereItLanded() throws Exception {
        String payer = "payer-" + UUID.randomUUID();
        HttpResponse<String> paid = PaymentRecords.pay(server, payer, false);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
        JsonObject receipt = Json.createReader(new StringReader(paid.body())).readObject();
        String paymentId = receipt.getString("paymentId");
        String eventId = receipt.getString("eventId");

        ConsumerRecord<String, String> record = PaymentRecords.recordOf(TOPIC, eventId);
        PaymentRecords.assertDocumentedRecord(record, paymentId, eventId, payer);

        Awaitility.await("the row says where the record landed").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ?::uuid AND status = 'SENT'"
                        + " AND kafka_partition = ? AND kafka_offset = ?", eventId, record.partition(), record.offset()) == 1);
        Awaitility.await("the ledger books the payment").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM ledger_entry WHERE event_id = ?::uuid", eventId) == 1);
        assertThat(server.count("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", SLOT))
                .as("the server streams from its slot").isEqualTo(1);
        Awaitility.await("the stream's position is kept in the database").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_cdc_offset WHERE engine = ?", SLOT) > 0);
    }

    @Test
    void theMetersSayTheSlotIsStreamedAndHowMuchWalItKeeps() {
        Awaitility.await("the slot's meters").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(meters())
                        .contains("outbox_cdc_slot_present 1.0", "outbox_cdc_slot_active 1.0",
                                "outbox_cdc_slot_retained_limit_bytes 1.073741824E9")
                        .containsPattern("(?m)^outbox_cdc_slot_retained_bytes [0-9.E]+$"));
    }

    @Test
    void anEventBehindAWaitingEventOfItsAggregateWaitsWhileOtherAggregatesGoOn() throws Exception {
        String held = "parcel-held-" + UUID.randomUUID();
        String free = "parcel-free-" + UUID.randomUUID();
        UUID waiting = UUID.randomUUID();
        UUID behind = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        try (Connection db = connect()) {
            insert(db, waiting, held, "now() + interval '1 day'"); // scheduled: not the stream's to publish now
            db.setAutoCommit(false);
            insert(db, behind, held, "now()");
            insert(db, other, free, "now()");
            db.commit();
        }

        PaymentRecords.recordOf(PARCELS, other.toString());
        assertThat(server.status(other)).isEqualTo("SENT");
        assertThat(server.status(behind)).as("its aggregate's earlier event waits, so it does too").isEqualTo("PENDING");
        assertThat(server.status(waiting)).isEqualTo("PENDING");
    }

    @Test
    void anEventItsTopicRefusesForGoodGoesToItsDeadLetterTopicAsInPollingMode() throws Exception {
        UUID poison = UUID.randomUUID();
        try (Connection db = connect()) {
            insert(db, poison, "parcel-poison-" + poison, "now()", SMALL, tooLargeForTwoKilobytes());
        }

        Awaitility.await("the poison event dead-lettered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "DLT".equals(server.status(poison)));
        ConsumerRecord<String, String> deadLetter = Kafka.consumeUntil(SMALL + ".DLT", "the dead letter", consumed -> consumed
                        .stream().anyMatch(record -> poison.toString().equals(Kafka.header(record, "dlt_event_id"))))
                .stream().filter(record -> poison.toString().equals(Kafka.header(record, "dlt_event_id"))).findFirst()
                .orElseThrow();
        assertThat(Kafka.header(deadLetter, "dlt_original_topic")).isEqualTo(SMALL);
        assertThat(Kafka.header(deadLetter, "dlt_error_class")).endsWith("RecordTooLargeException");
        assertThat(Kafka.header(deadLetter, "ce_id")).isEqualTo(poison.toString());
    }

    /**
     * A replayed dead letter is not in the change stream again (the stream brings each append once), so the relay
     * takes it as soon as it is due, not after the handover: a day here, so only that can publish it.
     */
    @Test
    void aDeadLetterAnOperatorReplaysIsPublishedAtOnceNotAfterTheHandover() throws Exception {
        UUID letter = UUID.randomUUID();
        try (Connection db = connect()) {
            insert(db, letter, "parcel-mended-" + letter, "now()", MENDED, tooLargeForTwoKilobytes());
        }
        Awaitility.await("dead-lettered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "DLT".equals(server.status(letter)));

        Kafka.setTopicConfig(MENDED, "max.message.bytes", "1048576"); // the operator's fix
        HttpResponse<String> replay = PaymentRecords.asOperator(HttpRequest.newBuilder(
                URI.create(server.baseUrl() + "/payments/outbox/api/events/" + letter + "/replay"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(200);

        ConsumerRecord<String, String> record = PaymentRecords.recordOf(MENDED, letter.toString());
        Awaitility.await("SENT where it landed").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ? AND status = 'SENT'"
                        + " AND kafka_offset = ? AND replay_count = 1", letter, record.offset()) == 1);
    }

    @Test
    void eventsAppendedWhileTheServerIsDownArePublishedOnceWhenItStreamsAgain() throws Exception {
        server.close();
        List<UUID> events = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        try (Connection db = connect()) {
            for (UUID event : events) {
                insert(db, event, "parcel-" + event, "now()");
            }
        }
        server = start(false);

        List<ConsumerRecord<String, String>> records = Kafka.consumeUntil(PARCELS, "the events appended while down",
                consumed -> events.stream().allMatch(event -> consumed.stream()
                        .anyMatch(record -> event.toString().equals(Kafka.header(record, "ce_id")))));
        for (UUID event : events) {
            assertThat(records.stream().filter(record -> event.toString().equals(Kafka.header(record, "ce_id"))))
                    .as("published once: " + event).hasSize(1);
            Awaitility.await("SENT: " + event).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> "SENT".equals(server.status(event)));
        }
    }

    /**
     * Starts the server and waits until it streams: what is appended before its slot exists is the polling relay's,
     * after the handover (a day here).
     */
    private static AdoptionServer start(boolean freshDatabase) throws Exception {
        AdoptionServer started = AdoptionServer.start(NAME, DATABASE, freshDatabase, true, List.of(
                new AdoptionServer.App("payments", AdoptionServer.paymentsWarWithCdcAndConsole(), "/payments", Map.of(
                        "outbox.publisher", "cdc",
                        "outbox.cdc.slot", SLOT,
                        "outbox.cdc.publication", SLOT,
                        "outbox.cdc.handover-ms", Long.toString(Duration.ofDays(1).toMillis()),
                        "outbox.lag.refresh-ms", "1000",
                        "outbox.topic.Payment", TOPIC,
                        "mp.messaging.incoming.ledger.topic", TOPIC,
                        "mp.messaging.incoming.ledger.group.id", GROUP))));
        Awaitility.await("the server streams from its slot").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> started.count("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", SLOT) == 1);
        return started;
    }

    /** A payload over 2 KB even compressed (incompressible noise): a topic that takes 2 KB refuses it for good. */
    private static String tooLargeForTwoKilobytes() {
        byte[] noise = new byte[9_000];
        new Random(7).nextBytes(noise);
        return "{\"noise\": \"" + Base64.getEncoder().encodeToString(noise) + "\"}";
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(AdoptionServer.databaseUrl(DATABASE), "outbox", "outbox");
    }

    /** An event as an application appends it, written straight into the server's database. */
    private static void insert(Connection db, UUID eventId, String aggregateId, String due) throws SQLException {
        insert(db, eventId, aggregateId, due, PARCELS, "{}");
    }

    private static void insert(Connection db, UUID eventId, String aggregateId, String due, String topic, String payload)
            throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          next_attempt_at)
                VALUES (?, 'Parcel', ?, 'ParcelMoved', ?, ?::jsonb, '{}'::jsonb, %s)""".formatted(due))) {
            insert.setObject(1, eventId);
            insert.setString(2, aggregateId);
            insert.setString(3, topic);
            insert.setString(4, payload);
            insert.executeUpdate();
        }
    }

    private static String meters() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/payments/outbox/prometheus"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}

package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connect mode ({@code outbox.publisher=connect}) for a team that runs Kafka Connect: the payments WAR with the
 * core's and the console's jars, on a Liberty server of its own, and a Kafka Connect worker running the documented connector
 * configuration ({@code connect/outbox-relay-connector.json}, unchanged) with Debezium's PostgreSQL connector and
 * the Outbox Relay plugin. Connect publishes; the server claims nothing and records where each record landed.
 */
class ConnectModeIT {

    private static final String TOPIC = Kafka.uniqueTopic("connect-payments");
    private static final String GROUP = "ledger-" + TOPIC;
    private static final String NAME = "outbox-adoption-connect";
    private static final String DATABASE = "adoption_connect";
    private static final String SLOT = "outbox_relay_connect"; // the documented configuration's
    private static final Path WORKER_DIR = Path.of("target", "connect-worker").toAbsolutePath();
    /** Appended before the connector existed: the connector's snapshot of what waits publishes it. */
    private static final UUID WAITING = UUID.randomUUID();
    private static AdoptionServer server;
    private static ConnectWorker worker;

    @BeforeAll
    static void deployThePaymentsApplicationAndTheConnector() throws Exception {
        Kafka.createTopic(TOPIC, 3);
        // as docs/connect.md asks of a cluster that creates no topic on first use (this one does not)
        Kafka.createTopicIfAbsent("__debezium-heartbeat.outbox-relay", 1);
        deleteRecursively(WORKER_DIR); // offsets of an earlier run would skip the new slot's snapshot
        server = AdoptionServer.start(NAME, DATABASE, true, List.of(
                new AdoptionServer.App("payments", AdoptionServer.paymentsWar(true), "/payments", Map.of(
                        "outbox.publisher", "connect",
                        "outbox.connect.topics", Pattern.quote(TOPIC),
                        "outbox.topic.Payment", TOPIC,
                        "mp.messaging.incoming.ledger.topic", TOPIC,
                        "mp.messaging.incoming.ledger.group.id", GROUP))));
        try (Connection db = connect()) {
            insert(db, WAITING, "payment-before-connect", "{\"correlation-id\": \"before-connect\"}");
        }
        worker = startWorker();
    }

    @AfterAll
    static void stop() throws Exception {
        if (worker != null) {
            worker.close();
        }
        if (server != null) {
            server.close();
        }
        AdoptionServer.freshDatabase(DATABASE); // and the connector's slot, which would keep WAL for ever
    }

    @Test
    void aPaymentIsPublishedByKafkaConnectAsThePollingRelayWouldAndBecomesSentWhereItLanded() throws Exception {
        String payer = "payer-" + UUID.randomUUID();
        HttpResponse<String> paid = PaymentRecords.pay(server, payer, false);
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
        JsonObject receipt = Json.createReader(new StringReader(paid.body())).readObject();
        String paymentId = receipt.getString("paymentId");
        String eventId = receipt.getString("eventId");

        ConsumerRecord<String, String> record = PaymentRecords.recordOf(TOPIC, eventId);
        PaymentRecords.assertDocumentedRecord(record, paymentId, eventId, payer);
        assertThat(headerNames(record)).as("the polling relay's headers, in its order").startsWith("ce_specversion",
                "ce_id", "ce_type", "ce_source", "ce_subject", "ce_time", "content-type", "id", "aggregate_type",
                "event_version");
        assertThat(headerNames(record)).doesNotContain("outbox_headers");
        assertThat(Kafka.header(record, "ce_source")).isEqualTo("/outbox-relay");
        assertThat(Kafka.header(record, "ce_time")).as("the event's created_at, as the relay writes it")
                .isEqualTo(DateTimeFormatter.ISO_INSTANT.format(createdAt(UUID.fromString(eventId)).toInstant()));

        Awaitility.await("the row says where the record landed").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ?::uuid AND status = 'SENT'"
                        + " AND kafka_partition = ? AND kafka_offset = ?", eventId, record.partition(), record.offset()) == 1);
        Awaitility.await("the ledger books the payment").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM ledger_entry WHERE event_id = ?::uuid", eventId) == 1);
        assertThat(records(eventId)).as("published once: by Connect, not by the server too").hasSize(1);
    }

    @Test
    void theConsoleShowsWhereConnectPublishedAnEventAndRefusesAReplayThatNothingWouldSend() throws Exception {
        ConsumerRecord<String, String> record = PaymentRecords.recordOf(TOPIC, WAITING.toString());
        Awaitility.await("SENT where it landed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "SENT".equals(server.status(WAITING)));

        HttpResponse<String> detail = PaymentRecords.asOperator(HttpRequest.newBuilder(
                URI.create(server.baseUrl() + "/payments/outbox/api/events/" + WAITING)));
        assertThat(detail.statusCode()).as(detail.body()).isEqualTo(200);
        JsonObject event = Json.createReader(new StringReader(detail.body())).readObject();
        assertThat(event.getString("status")).isEqualTo("SENT");
        assertThat(event.getInt("kafkaPartition")).isEqualTo(record.partition());
        assertThat(event.getJsonNumber("kafkaOffset").longValue()).isEqualTo(record.offset());

        UUID dead = UUID.randomUUID();
        try (Connection db = connect()) {
            insert(db, dead, "payment-dead", "{}");
        }
        PaymentRecords.recordOf(TOPIC, dead.toString());
        Awaitility.await("SENT").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "SENT".equals(server.status(dead)));
        try (Connection db = connect(); PreparedStatement unpublish = db.prepareStatement(
                "DELETE FROM outbox_sent WHERE id = (SELECT id FROM outbox_event WHERE event_id = ?)");
             PreparedStatement kill = db.prepareStatement(
                "UPDATE outbox_event SET status = 'DEAD' WHERE event_id = ?")) { // as a polling relay once left it
            unpublish.setObject(1, dead);
            unpublish.executeUpdate();
            kill.setObject(1, dead);
            kill.executeUpdate();
        }
        HttpResponse<String> replay = PaymentRecords.asOperator(HttpRequest.newBuilder(
                URI.create(server.baseUrl() + "/payments/outbox/api/events/" + dead + "/replay"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(409);
        assertThat(replay.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/problem+json"));
        assertThat(replay.body()).contains("Connect mode");
        assertThat(server.status(dead)).isEqualTo("DEAD");
    }

    @Test
    void anEventThatWaitedBeforeTheConnectorExistedIsPublishedOnceWithItsStoredHeaders() throws Exception {
        ConsumerRecord<String, String> record = PaymentRecords.recordOf(TOPIC, WAITING.toString());

        assertThat(record.key()).isEqualTo("payment-before-connect");
        assertThat(Kafka.header(record, "correlation-id")).isEqualTo("before-connect");
        Awaitility.await("SENT where it landed").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ? AND status = 'SENT'"
                        + " AND kafka_offset = ?", WAITING, record.offset()) == 1);
        assertThat(records(WAITING.toString())).hasSize(1);
    }

    @Test
    void paymentsMadeWhileTheWorkerIsDownArePublishedOnceWhenItIsBack() throws Exception {
        worker.close();
        List<String> events = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> paid = PaymentRecords.pay(server, "payer-while-down-" + UUID.randomUUID(), false);
            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
            events.add(Json.createReader(new StringReader(paid.body())).readObject().getString("eventId"));
        }
        for (String event : events) {
            assertThat(server.status(UUID.fromString(event))).as("the server does not publish in Connect mode").isEqualTo("PENDING");
        }

        worker = startWorker();

        for (String event : events) {
            PaymentRecords.recordOf(TOPIC, event);
            Awaitility.await("SENT: " + event).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> "SENT".equals(server.status(UUID.fromString(event))));
            assertThat(records(event)).as("published once: " + event).hasSize(1);
        }
    }

    /** Starts the worker and waits until its connector streams from the slot. */
    private static ConnectWorker startWorker() throws Exception {
        ConnectWorker started = ConnectWorker.start(WORKER_DIR, DATABASE);
        try {
            Awaitility.await("the connector streams from its slot").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        if (!started.alive()) {
                            throw new AssertionError("the Connect worker stopped:\n" + started.log());
                        }
                        return server.count("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active",
                                SLOT) == 1;
                    });
        } catch (RuntimeException | AssertionError notStreaming) {
            String log = started.log();
            started.close();
            throw new AssertionError("the Connect worker did not stream:\n" + log, notStreaming);
        }
        return started;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static List<ConsumerRecord<String, String>> records(String eventId) {
        return Kafka.readAll(TOPIC).stream().filter(record -> eventId.equals(Kafka.header(record, "ce_id"))).toList();
    }

    private static List<String> headerNames(ConsumerRecord<?, ?> record) {
        List<String> names = new ArrayList<>();
        for (Header header : record.headers()) {
            names.add(header.key());
        }
        return names;
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(AdoptionServer.databaseUrl(DATABASE), "outbox", "outbox");
    }

    /** An event as an application appends it, written straight into the server's database. */
    private static void insert(Connection db, UUID eventId, String aggregateId, String headers) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers)
                VALUES (?, 'Payment', ?, 'PaymentReceived', ?, '{"payer": "before"}'::jsonb, ?::jsonb)""")) {
            insert.setObject(1, eventId);
            insert.setString(2, aggregateId);
            insert.setString(3, TOPIC);
            insert.setString(4, headers);
            insert.executeUpdate();
        }
    }

    private static OffsetDateTime createdAt(UUID eventId) throws SQLException {
        try (Connection db = connect();
             PreparedStatement query = db.prepareStatement("SELECT created_at FROM outbox_event WHERE event_id = ?")) {
            query.setObject(1, eventId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getObject(1, OffsetDateTime.class);
            }
        }
    }
}

package io.outboxrelay.health.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.DevStack;
import io.outboxrelay.support.LibertyServer;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Row;
import jakarta.json.JsonObject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health on the real server: started and live; ready goes DOWN when PostgreSQL stops and UP again when it
 * returns, while liveness stays UP (a restart would not help). While the database is away, API calls
 * answer 503 problem documents and leave nothing half-committed. While Kafka is away the server stays
 * ready and keeps taking writes; the Kafka check of its own reports the outage, and an order taken meanwhile is
 * published once Kafka is back, its event charged no attempt; the Kafka client's warnings reach the server's log.
 */
class HealthIT {

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @AfterAll
    static void bothAreBackForTheOtherTests() {
        DevStack.startPostgres();
        DevStack.startKafka();
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void startedAndLiveWhileTheRelayLoopBeats() {
        assertThat(Api.get("/health/started").status()).isEqualTo(200);
        Answer live = Api.get("/health/live");
        assertThat(live.status()).as(live.body()).isEqualTo(200);
        assertThat(check(live.json(), "relay-loop").getJsonObject("data").getJsonNumber("lastRoundMsAgo").longValue())
                .isLessThan(60_000);
    }

    @Test
    void readinessStaysUpWhileKafkaIsAwayAndTheKafkaCheckReportsTheOutage() throws IOException {
        String customer = "kafka-outage-" + UUID.randomUUID();
        long logBefore = Files.size(messagesLog());
        try {
            DevStack.stopKafka();
            awaitKafkaCheck(503, "DOWN");
            Answer ready = Api.get("/health/ready");
            assertThat(ready.status()).as("appends need only the database: " + ready.body()).isEqualTo(200);
            assertThat(check(ready.json(), "database").getString("status")).isEqualTo("UP");
            assertThat(ready.json().getJsonArray("checks").getValuesAs(JsonObject.class))
                    .noneMatch(check -> check.getString("name").equals("kafka"));
            Answer write = Api.post("/api/orders", "{\"customerId\": \"" + customer
                    + "\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 1, \"unitPrice\": 5}]}");
            assertThat(write.status()).as("an order is taken while Kafka is away: " + write.body()).isEqualTo(201);
            assertThat(Api.get("/health/live").status()).as("the relay loop keeps beating during the outage").isEqualTo(200);
        } finally {
            DevStack.startKafka();
        }
        awaitKafkaCheck(200, "UP");
        long event = orderEventId(customer);
        Awaitility.await("the order taken during the outage to be published").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Row row = OutboxRows.row(event);
                    assertThat(row.status()).as(row.toString()).isEqualTo("SENT");
                });
        Row sent = OutboxRows.row(event);
        assertThat(sent.attempts())
                .as("an outage costs an event no attempt, even one over before the relay asks the cluster: " + sent)
                .isZero();
        assertThat(messagesLogSince(logBefore)).as("the server's log during the outage")
                .containsPattern("org\\.apache\\.kafka\\.\\S+ +W .*could not be established");
    }

    /** The shared server's messages.log: where an operator reads what went wrong. */
    private static Path messagesLog() {
        return LibertyServer.logs(System.getProperty("it.server.name")).resolve("messages.log");
    }

    /** What the server logged after the log held {@code size} bytes (all of it, if it rolled over meanwhile). */
    private static String messagesLogSince(long size) throws IOException {
        byte[] log = Files.readAllBytes(messagesLog());
        int from = log.length >= size ? (int) size : 0;
        return new String(log, from, log.length - from, StandardCharsets.UTF_8);
    }

    /** The outbox row of the one order of this customer. */
    private static long orderEventId(String customer) {
        List<Map<String, Object>> events = Database.rows("""
                SELECT e.id FROM outbox_event e JOIN orders o ON e.aggregate_id = o.id::text
                 WHERE o.customer_id = ?""", customer);
        assertThat(events).as("the events of the order of " + customer).hasSize(1);
        return ((Number) events.get(0).get("id")).longValue();
    }

    @Test
    void readinessFollowsPostgresAndWritesMeanwhileAnswer503WithNothingHalfDone() {
        String customer = "outage-" + UUID.randomUUID();
        try {
            DevStack.stopPostgres();
            awaitReadiness(503, "database", "DOWN");
            assertThat(Api.get("/health/live").status()).isEqualTo(200);

            Answer write = Api.post("/api/orders", "{\"customerId\": \"" + customer
                    + "\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 1, \"unitPrice\": 5}]}");
            Answer read = Api.get("/outbox/api/events?aggregateType=Order", Api.VIEWER);
            for (Answer answer : List.of(write, read)) {
                assertThat(answer.status()).as(answer.body()).isEqualTo(503);
                assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
                assertThat(answer.body()).doesNotContain("Exception", "SQL");
            }
        } finally {
            DevStack.startPostgres();
        }
        awaitReadiness(200, "database", "UP");
        assertThat(Database.count("SELECT count(*) FROM orders WHERE customer_id = ?", customer))
                .as("the refused order left nothing behind").isZero();
        Answer again = Api.post("/api/orders", "{\"customerId\": \"" + customer
                + "\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 1, \"unitPrice\": 5}]}");
        assertThat(again.status()).as("writes work again once the database is back").isEqualTo(201);
    }

    private static void awaitKafkaCheck(int status, String state) {
        Awaitility.await("the Kafka check " + status + " " + state)
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Answer kafka = Api.get("/outbox/health/kafka");
                    assertThat(kafka.status()).as(kafka.body()).isEqualTo(status);
                    assertThat(kafka.header("Content-Type")).startsWith("application/json");
                    assertThat(kafka.json().getString("status")).isEqualTo(state);
                });
    }

    private static void awaitReadiness(int status, String check, String state) {
        Awaitility.await("readiness " + status + " with " + check + " " + state)
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Answer ready = Api.get("/health/ready");
                    assertThat(ready.status()).as(ready.body()).isEqualTo(status);
                    assertThat(check(ready.json(), check).getString("status")).isEqualTo(state);
                });
    }

    private static JsonObject check(JsonObject health, String name) {
        return health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(check -> check.getString("name").equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no health check named " + name + " in " + health));
    }
}

package io.outboxrelay.health.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.DevStack;
import jakarta.json.JsonObject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health on the real server: started and live; ready goes DOWN when PostgreSQL or Kafka stops
 * and UP again when it returns, while liveness stays UP (a restart would not help). While the
 * database is away, API calls answer 503 problem documents and leave nothing half-committed.
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
    void readinessFollowsKafka() {
        try {
            DevStack.stopKafka();
            awaitReadiness(503, "kafka", "DOWN");
            assertThat(Api.get("/health/live").status()).as("the relay loop keeps beating during the outage").isEqualTo(200);
        } finally {
            DevStack.startKafka();
        }
        awaitReadiness(200, "kafka", "UP");
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

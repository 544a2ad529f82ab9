package io.outboxrelay.health.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The running server is ready on the same PostgreSQL, and its Kafka check reaches the Kafka cluster the test sees. */
class ReadinessIT {

    @Test
    void theServerIsReadyAndHasTalkedToTheRealKafkaCluster() throws Exception {
        String expectedClusterId;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", System.getProperty("it.kafka.bootstrap")))) {
            expectedClusterId = admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        }

        Answer ready = Api.get("/health/ready");
        Answer kafka = Api.get("/outbox/health/kafka");

        assertThat(kafka.status()).as(kafka.body()).isEqualTo(200);
        assertThat(kafka.json().getString("status")).isEqualTo("UP");
        assertThat(kafka.json().getJsonObject("data").getString("clusterId")).isEqualTo(expectedClusterId);
        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        JsonObject database = check(ready.json(), "database");
        assertThat(database.getString("status")).isEqualTo("UP");
        assertThat(database.getJsonObject("data").getJsonNumber("migrationsApplied").longValue()).isPositive();
    }

    private static JsonObject check(JsonObject health, String name) {
        return health.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(check -> check.getString("name").equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no health check named " + name + " in " + health));
    }
}

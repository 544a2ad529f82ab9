package io.outboxrelay.health.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The running server reaches the same PostgreSQL and Kafka cluster the test sees. */
class ReadinessIT {

    @Test
    void theServerIsReadyAndHasTalkedToTheRealKafkaCluster() throws Exception {
        String expectedClusterId;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", System.getProperty("it.kafka.bootstrap")))) {
            expectedClusterId = admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        }

        Answer ready = Api.get("/health/ready");

        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        JsonObject kafka = check(ready.json(), "kafka");
        assertThat(kafka.getString("status")).isEqualTo("UP");
        assertThat(kafka.getJsonObject("data").getString("clusterId")).isEqualTo(expectedClusterId);
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

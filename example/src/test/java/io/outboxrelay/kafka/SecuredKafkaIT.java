package io.outboxrelay.kafka;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Against a Kafka that wants credentials, as a production cluster does. The server under test knows only the
 * devstack's SASL/SCRAM listener, and its credentials only as the consumers' connector properties
 * ({@code mp.messaging.connector.liberty-kafka.security.protocol}, {@code ...sasl.mechanism},
 * {@code ...sasl.jaas.config}; see the integration-test server in the example's pom). Every Kafka client the
 * server makes must therefore take them from there: the relay's producer publishes, the consumers consume and
 * commit, the consumers' dead-letter producer dead-letters, and the admin client answers the Kafka check and
 * reads the lag. (The tests themselves use the plain listener of the same broker.) Every other integration
 * test runs against the same server, so all of them go through the secured listener too.
 */
class SecuredKafkaIT {

    private static final String SASL_BOOTSTRAP = System.getProperty("it.kafka.sasl.bootstrap");
    private static final String TOPIC = "order.events";
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    @Test
    void theSecuredListenerRefusesAClientWithWrongCredentialsAndAdmitsOneWithTheRightOnes() throws Exception {
        try (Admin impostor = Admin.create(Map.of("bootstrap.servers", SASL_BOOTSTRAP, "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"outbox\" password=\"wrong\";"))) {
            assertThatThrownBy(() -> impostor.describeCluster().clusterId().get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        try (Admin admitted = Admin.create(Map.of("bootstrap.servers", SASL_BOOTSTRAP, "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "SCRAM-SHA-256", "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"outbox\" password=\"outbox\";"))) {
            assertThat(admitted.describeCluster().clusterId().get(30, TimeUnit.SECONDS)).isNotBlank();
        }
    }

    @Test
    void theServersKafkaCheckGoesThroughTheSecuredListener() {
        Answer kafka = Api.get("/outbox/health/kafka");

        assertThat(kafka.status()).as(kafka.body()).isEqualTo(200);
        assertThat(kafka.json().getJsonObject("data").getString("securityProtocol")).isEqualTo("SASL_PLAINTEXT");
    }

    @Test
    void anOrderIsPublishedConsumedAndCountedInTheLagAndAPoisonRecordIsDeadLetteredAllOverSasl() {
        String sku = "sasl-" + UUID.randomUUID().toString().substring(0, 8);
        Answer created = Api.post("/api/orders", """
                {"customerId": "c-sasl", "lines": [{"sku": "%s", "quantity": 3, "unitPrice": 5.00}]}""".formatted(sku));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String orderId = created.json().getString("orderId");

        Awaitility.await("the order's event published by the relay").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> Database.count("SELECT count(*) FROM outbox_event_state WHERE aggregate_id = ? AND status = 'SENT'", orderId) == 1);
        Awaitility.await("the inventory consumer to reserve the stock").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> Database.count("SELECT count(*) FROM inventory_stock WHERE sku = ? AND reserved = 3", sku) == 1);

        String key = "sasl-poison-" + UUID.randomUUID();
        RecordMetadata poison = Kafka.produce(TOPIC, key, "{\"lines\": []}", Map.of("ce_type", "OrderCreated"));
        List<ConsumerRecord<String, String>> letters = Kafka.consumeUntil(TOPIC + ".inventory.DLT", "a dead letter keyed " + key,
                records -> records.stream().anyMatch(record -> key.equals(record.key())));
        assertThat(letters).anySatisfy(letter -> assertThat(Kafka.header(letter, "dlt_original_offset"))
                .isEqualTo(Long.toString(poison.offset())));

        Awaitility.await("the lag of the inventory group on " + TOPIC).atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Answer lag = Api.get("/outbox/api/lag", Api.VIEWER);
                    assertThat(lag.json().getJsonArray("consumerGroups").getValuesAs(JsonObject.class))
                            .anySatisfy(partition -> {
                                assertThat(partition.getString("group")).isEqualTo("inventory");
                                assertThat(partition.getString("topic")).isEqualTo(TOPIC);
                                assertThat(partition.getJsonNumber("committed").longValue()).isPositive();
                            });
                });
    }
}

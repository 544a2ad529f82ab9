package io.outboxrelay.kafka.boundary;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaSettingsTest {

    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"outbox\" password=\"s\";";

    @Test
    void theConnectorsSecuritySettingsReachEveryClientTheServerMakes() {
        KafkaSettings settings = settings(Map.of(
                "mp.messaging.connector.liberty-kafka.security.protocol", "SASL_SSL",
                "mp.messaging.connector.liberty-kafka.sasl.mechanism", "SCRAM-SHA-512",
                "mp.messaging.connector.liberty-kafka.sasl.jaas.config", JAAS,
                "mp.messaging.connector.liberty-kafka.ssl.truststore.location", "/etc/kafka/truststore.p12",
                "mp.messaging.connector.liberty-kafka.group.id", "consumers-only",
                "mp.messaging.connector.liberty-kafka.auto.offset.reset", "earliest"), Map.of());

        for (String client : List.of("relay", "admin", "consumer-dlt")) {
            Map<String, Object> properties = client.equals("admin") ? settings.clientProperties(client)
                    : settings.reliableProducerProperties(client, Map.of());
            assertThat(properties).as(client)
                    .containsEntry("bootstrap.servers", "broker-1:9093")
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("sasl.jaas.config", JAAS)
                    .containsEntry("ssl.truststore.location", "/etc/kafka/truststore.p12")
                    .containsEntry("client.id", "outbox-relay-" + client)
                    .doesNotContainKeys("group.id", "auto.offset.reset");
        }
    }

    @Test
    void oneClientsOverrideWinsForThatClientOnly() {
        KafkaSettings settings = settings(Map.of(
                "mp.messaging.connector.liberty-kafka.security.protocol", "SASL_SSL",
                "outbox.kafka.admin.security.protocol", "SSL",
                "outbox.kafka.admin.request.timeout.ms", "20000",
                "outbox.kafka.consumer-dlt.acks", "1",
                "outbox.kafka.relay.linger.ms", "20"), Map.of());

        assertThat(settings.clientProperties("admin")).containsEntry("security.protocol", "SSL")
                .containsEntry("request.timeout.ms", "20000");
        assertThat(settings.clientProperties("relay")).containsEntry("security.protocol", "SASL_SSL")
                .doesNotContainKey("request.timeout.ms");
        assertThat(settings.reliableProducerProperties("relay", Map.of("linger.ms", 5)))
                .as("configuration beats the built-in default").containsEntry("linger.ms", "20");
        assertThat(settings.reliableProducerProperties("consumer-dlt", Map.of()))
                .as("no override weakens a producer's durability").containsEntry("acks", "all");
    }

    @Test
    void settingsGivenAsEnvironmentVariablesCountToo() {
        // an environment variable is found by the dotted name, though the listing shows only its own spelling
        KafkaSettings settings = settings(Map.of("MP_MESSAGING_CONNECTOR_LIBERTY_KAFKA_SASL_JAAS_CONFIG", JAAS),
                Map.of("mp.messaging.connector.liberty-kafka.sasl.jaas.config", JAAS));

        assertThat(settings.clientProperties("admin")).containsEntry("sasl.jaas.config", JAAS);
    }

    private static KafkaSettings settings(Map<String, String> listed, Map<String, String> foundByNameOnly) {
        KafkaSettings settings = new KafkaSettings();
        settings.bootstrapServers = "broker-1:9093";
        settings.config = new Listed(listed, foundByNameOnly);
        return settings;
    }

    /** Configuration as MicroProfile Config presents it: names that are listed, and values found by name. */
    private record Listed(Map<String, String> listed, Map<String, String> foundByNameOnly) implements Config {

        @Override
        public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
            Map<String, String> all = new HashMap<>(foundByNameOnly);
            all.putAll(listed);
            return Optional.ofNullable(all.get(name)).map(type::cast);
        }

        @Override
        public <T> T getValue(String name, Class<T> type) {
            return getOptionalValue(name, type).orElseThrow();
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return Set.copyOf(listed.keySet());
        }

        @Override
        public ConfigValue getConfigValue(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> type) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new UnsupportedOperationException();
        }
    }
}

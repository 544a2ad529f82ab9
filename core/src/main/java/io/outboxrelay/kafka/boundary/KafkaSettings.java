package io.outboxrelay.kafka.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.HashMap;
import java.util.Map;

/** Where Kafka is, as every client of the server sees it. */
@ApplicationScoped
public class KafkaSettings {

    @Inject
    @ConfigProperty(name = "KAFKA_BOOTSTRAP_SERVERS", defaultValue = "127.0.0.1:59092")
    String bootstrapServers;

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Properties common to every client: the cluster, and a client id naming this product. */
    public Map<String, Object> clientProperties(String clientRole) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("bootstrap.servers", bootstrapServers);
        properties.put("client.id", "outbox-relay-" + clientRole);
        return properties;
    }

    /**
     * Client properties plus {@code overrides}, then acks=all and idempotence, which no
     * override may weaken: every producer of this server writes what it must not lose.
     */
    public Map<String, Object> reliableProducerProperties(String clientRole, Map<String, Object> overrides) {
        Map<String, Object> properties = clientProperties(clientRole);
        properties.putAll(overrides);
        properties.put("acks", "all");
        properties.put("enable.idempotence", true);
        return properties;
    }
}

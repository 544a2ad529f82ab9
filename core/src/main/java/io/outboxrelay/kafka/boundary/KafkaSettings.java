package io.outboxrelay.kafka.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where Kafka is and how to reach it, as every client of the server sees it. A production cluster
 * has TLS or SASL; its settings are given once, as the consumers' connector reads them
 * ({@code mp.messaging.connector.liberty-kafka.security.protocol}, {@code ...sasl.jaas.config},
 * {@code ...ssl.truststore.location}, ...), and the same connection and security settings reach
 * every client the server makes itself: the relay's producer, the admin client (outage probe,
 * lag, Kafka health), the consumers' dead-letter producer and, in Connect mode, the reader of the outbox
 * topics. {@code outbox.kafka.<client>.<property>} (client {@code relay}, {@code admin}, {@code consumer-dlt}
 * or {@code connect-progress}) overrides a property for one client.
 */
@ApplicationScoped
public class KafkaSettings {

    /** Where the consumers' connector (Liberty's liberty-kafka) reads its properties. */
    public static final String CONNECTOR_PREFIX = "mp.messaging.connector.liberty-kafka.";
    static final String CLIENT_PREFIX = "outbox.kafka.";

    /** Connection and security properties every client shares; consumer-only ones (group.id, ...) stay the connector's. */
    private static final List<String> SHARED_PREFIXES = List.of("security.", "sasl.", "ssl.");
    private static final List<String> SHARED_NAMES = List.of("security.protocol", "sasl.mechanism", "sasl.jaas.config",
            "sasl.client.callback.handler.class", "sasl.login.callback.handler.class", "sasl.kerberos.service.name",
            "sasl.oauthbearer.token.endpoint.url", "ssl.truststore.location", "ssl.truststore.password", "ssl.truststore.type",
            "ssl.truststore.certificates", "ssl.keystore.location", "ssl.keystore.password", "ssl.keystore.type",
            "ssl.key.password", "ssl.keystore.key", "ssl.keystore.certificate.chain", "ssl.endpoint.identification.algorithm",
            "ssl.protocol", "ssl.enabled.protocols", "client.dns.lookup");

    @Inject
    @ConfigProperty(name = "KAFKA_BOOTSTRAP_SERVERS", defaultValue = "127.0.0.1:59092")
    String bootstrapServers;

    @Inject
    Config config;

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Properties of the client named {@code clientRole}: the cluster, a client id naming this product, the
     * shared connection and security settings, then this client's own overrides.
     */
    public Map<String, Object> clientProperties(String clientRole) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("bootstrap.servers", bootstrapServers);
        properties.put("client.id", "outbox-relay-" + clientRole);
        properties.putAll(shared(config));
        properties.putAll(withPrefix(config, CLIENT_PREFIX + clientRole + "."));
        return properties;
    }

    /**
     * {@code defaults}, then the client's properties, then acks=all and idempotence, which no setting may
     * weaken: every producer of this server writes what it must not lose.
     */
    public Map<String, Object> reliableProducerProperties(String clientRole, Map<String, Object> defaults) {
        Map<String, Object> properties = new HashMap<>(defaults);
        properties.putAll(clientProperties(clientRole));
        properties.put("acks", "all");
        properties.put("enable.idempotence", true);
        return properties;
    }

    /**
     * The connector's connection and security properties. The well-known ones are asked for by name, so that
     * an environment variable ({@code MP_MESSAGING_CONNECTOR_LIBERTY_KAFKA_SASL_JAAS_CONFIG}) counts too, which a
     * listing of property names would show only under its own spelling.
     */
    static Map<String, String> shared(Config config) {
        Map<String, String> shared = new TreeMap<>();
        withPrefix(config, CONNECTOR_PREFIX).forEach((name, value) -> {
            if (SHARED_NAMES.contains(name) || SHARED_PREFIXES.stream().anyMatch(name::startsWith)) {
                shared.put(name, value);
            }
        });
        for (String name : SHARED_NAMES) {
            config.getOptionalValue(CONNECTOR_PREFIX + name, String.class).ifPresent(value -> shared.put(name, value));
        }
        return shared;
    }

    /** Every configured {@code prefix<name>} as {@code name} to its value. */
    public static Map<String, String> withPrefix(Config config, String prefix) {
        Map<String, String> found = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix) && name.length() > prefix.length()) {
                config.getOptionalValue(name, String.class).ifPresent(value -> found.put(name.substring(prefix.length()), value));
            }
        }
        return found;
    }
}

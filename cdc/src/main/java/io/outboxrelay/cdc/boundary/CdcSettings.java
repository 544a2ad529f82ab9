package io.outboxrelay.cdc.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * CDC mode's knobs (docs/configuration.md). Debezium opens connections of its own (a replication connection cannot
 * come from a pool): to the database and as the user of the server's data source unless
 * {@code outbox.cdc.database.*} says otherwise, with the password {@code outbox.cdc.database.password}, else the
 * core's {@code DB_PASSWORD} variable (which Liberty offers through MicroProfile Config).
 */
@ApplicationScoped
public class CdcSettings {

    static final String ENGINE_PREFIX = "outbox.cdc.engine.";

    @Inject @ConfigProperty(name = "outbox.cdc.slot", defaultValue = "outbox_relay")
    String slot;

    @Inject @ConfigProperty(name = "outbox.cdc.publication", defaultValue = "outbox_relay")
    String publication;

    @Inject @ConfigProperty(name = "outbox.cdc.batch-size", defaultValue = "2048")
    int batchSize;

    @Inject @ConfigProperty(name = "outbox.cdc.restart-ms", defaultValue = "5000")
    long restartMs;

    @Inject
    Config config;

    public String slot() { return slot; }
    public String publication() { return publication; }
    public int batchSize() { return Math.max(1, batchSize); }

    /** How long to wait before streaming again after the engine stopped on an error, or to ask for the stream again. */
    public Duration restartDelay() { return Duration.ofMillis(Math.max(100, restartMs)); }

    public Optional<String> host() { return config.getOptionalValue("outbox.cdc.database.host", String.class); }
    public Optional<Integer> port() { return config.getOptionalValue("outbox.cdc.database.port", Integer.class); }
    public Optional<String> database() { return config.getOptionalValue("outbox.cdc.database.name", String.class); }
    public Optional<String> user() { return config.getOptionalValue("outbox.cdc.database.user", String.class); }

    public String password() {
        return config.getOptionalValue("outbox.cdc.database.password", String.class)
                .or(() -> config.getOptionalValue("DB_PASSWORD", String.class)).orElse("");
    }

    /** Every {@code outbox.cdc.engine.*} key, passed to Debezium as it is (without the prefix), last. */
    public Map<String, String> engineOverrides() {
        Map<String, String> overrides = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(ENGINE_PREFIX)) {
                config.getOptionalValue(name, String.class)
                        .ifPresent(value -> overrides.put(name.substring(ENGINE_PREFIX.length()), value));
            }
        }
        return overrides;
    }
}

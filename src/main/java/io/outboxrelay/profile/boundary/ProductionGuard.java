package io.outboxrelay.profile.boundary;

import io.outboxrelay.profile.control.LocalDefaults;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;
import java.util.logging.Logger;

/**
 * Runs first when the application starts (the schema migration depends on it). In the production
 * profile it refuses to start, naming every local-only setting it found; in any other profile it does nothing.
 */
@Startup
@Singleton(name = "ProductionGuard")
public class ProductionGuard {

    public static final String PRODUCTION = "production";
    private static final Logger LOG = Logger.getLogger(ProductionGuard.class.getName());

    @Inject
    @ConfigProperty(name = "outbox.profile", defaultValue = "development")
    String profile;

    @Inject
    @ConfigProperty(name = "outbox.demo.enabled", defaultValue = "false")
    boolean demo;

    @Inject
    @ConfigProperty(name = "outbox.sample.orders.append-events", defaultValue = "true")
    boolean appendEvents;

    @Inject
    Config config;

    @PostConstruct
    void check() {
        if (!PRODUCTION.equals(profile)) {
            return;
        }
        List<String> found = LocalDefaults.found(config.getOptionalValue("DB_PASSWORD", String.class),
                config.getOptionalValue("LOCAL_USERS_FILE", String.class), demo, appendEvents);
        if (!found.isEmpty()) {
            String refusal = "Outbox Relay refuses to start in the production profile: " + String.join("; ", found);
            LOG.severe(refusal);
            throw new IllegalStateException(refusal);
        }
        LOG.info("Production profile: no local default settings found");
    }
}

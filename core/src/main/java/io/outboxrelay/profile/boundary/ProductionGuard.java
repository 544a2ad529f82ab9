package io.outboxrelay.profile.boundary;

import io.outboxrelay.profile.control.LocalDefaults;
import jakarta.enterprise.inject.Instance;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Runs first when the application starts (the schema migration depends on it). In the production
 * profile it refuses to start, naming every local-only setting it found (its own and those each
 * {@link ProductionCheck} of the application reports); in any other profile it does nothing.
 */
@Startup
@Singleton(name = "OutboxRelayProductionGuard")
public class ProductionGuard {

    public static final String PRODUCTION = "production";
    private static final Logger LOG = Logger.getLogger(ProductionGuard.class.getName());

    @Inject
    @ConfigProperty(name = "outbox.profile", defaultValue = "development")
    String profile;

    @Inject
    Config config;

    @Inject
    Instance<ProductionCheck> applicationChecks;

    @PostConstruct
    void check() {
        if (!PRODUCTION.equals(profile)) {
            return;
        }
        List<String> found = new ArrayList<>(LocalDefaults.found(config.getOptionalValue("DB_PASSWORD", String.class),
                config.getOptionalValue("LOCAL_USERS_FILE", String.class)));
        applicationChecks.forEach(check -> found.addAll(check.localOnlySettings()));
        if (!found.isEmpty()) {
            String refusal = "Outbox Relay refuses to start in the production profile: " + String.join("; ", found);
            LOG.severe(refusal);
            throw new IllegalStateException(refusal);
        }
        LOG.info("Production profile: no local default settings found");
    }
}

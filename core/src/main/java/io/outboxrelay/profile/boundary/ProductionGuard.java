package io.outboxrelay.profile.boundary;

import io.outboxrelay.profile.control.LocalDefaults;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.inject.Instance;
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
    /** The JTA data source outbox-relay.xml defines. */
    static final String BUNDLED_DATA_SOURCE = "jdbc/outbox";
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
        List<String> found = new ArrayList<>();
        if (BUNDLED_DATA_SOURCE.equals(config.getOptionalValue("outbox.datasource", String.class).orElse(BUNDLED_DATA_SOURCE))) {
            // the data sources of outbox-relay.xml read DB_PASSWORD; an application's own ones do not
            LocalDefaults.databasePassword(config.getOptionalValue("DB_PASSWORD", String.class)).ifPresent(found::add);
        }
        LocalDefaults.localUsers(config.getOptionalValue("LOCAL_USERS_FILE", String.class)).ifPresent(found::add);
        applicationChecks.forEach(check -> found.addAll(check.localOnlySettings()));
        if (!found.isEmpty()) {
            String refusal = "Outbox Relay refuses to start in the production profile: " + String.join("; ", found);
            LOG.severe(refusal);
            throw new IllegalStateException(refusal);
        }
        LOG.info("Production profile: no local default settings found");
    }
}

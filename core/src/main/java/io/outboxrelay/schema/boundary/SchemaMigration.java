package io.outboxrelay.schema.boundary;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.database.postgresql.PostgreSQLConfigurationExtension;

import java.util.logging.Logger;

/**
 * Brings the outbox's own tables up to date when the application starts, before anything else
 * touches them: beans that need the schema declare {@code @DependsOn("OutboxRelaySchemaMigration")}.
 * The outbox's migrations have a location and a history table of their own, so they never mix with
 * the application's Flyway history. Flyway serialises concurrent starts with a PostgreSQL advisory
 * lock, so several servers may start against one database at once. {@code outbox.schema.migrate=false}
 * leaves the schema to the team's DBAs (the same DDL ships as {@value #PLAIN_DDL}).
 * The production guard runs before it: a server that refuses to start touches no schema.
 */
@Startup
@Singleton(name = "OutboxRelaySchemaMigration")
@DependsOn("OutboxRelayProductionGuard")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaMigration {

    /** Where the migrations live on the class path. */
    public static final String LOCATION = "db/outbox-relay";
    /** The outbox's own Flyway history table. */
    public static final String HISTORY_TABLE = "outbox_relay_schema_history";
    /** Every migration in one file, for schemas applied by hand or by another tool. */
    public static final String PLAIN_DDL = "META-INF/outbox-relay/schema.sql";

    /**
     * The outbox's Flyway settings, without a data source: what the server runs at start, and what a test or a
     * team's own tooling must run to get the same schema.
     */
    public static FluentConfiguration flyway(ClassLoader classLoader) {
        FluentConfiguration configuration = Flyway.configure(classLoader);
        // a session lock rather than one held by an open transaction, which a migration's CREATE INDEX
        // CONCURRENTLY would wait for forever
        configuration.getPluginRegister().getPlugin(PostgreSQLConfigurationExtension.class).setTransactionalLock(false);
        return configuration
                // the location holds an empty flyway.location: Liberty's class loader resolves files, not folders
                .locations("classpath:" + LOCATION)
                .callbackLocations("classpath:" + LOCATION)
                .table(HISTORY_TABLE)
                // a database that already has tables (the application's, or a schema applied by hand) is normal
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .failOnMissingLocations(true);
    }

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Inject
    OutboxDataSources dataSources;

    @Inject
    @ConfigProperty(name = "outbox.schema.migrate", defaultValue = "true")
    boolean migrate;

    @Inject
    SchemaReady ready;

    @PostConstruct
    void migrate() {
        if (!migrate) {
            LOG.info("outbox.schema.migrate=false: the outbox's tables are expected to exist already");
            ready.open();
            return;
        }
        MigrateResult result = flyway(getClass().getClassLoader()).dataSource(dataSources.nonTransactional()).load().migrate();
        LOG.info(() -> "Outbox schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migration(s) applied now)");
        ready.open();
    }
}

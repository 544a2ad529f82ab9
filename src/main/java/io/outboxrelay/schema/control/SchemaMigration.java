package io.outboxrelay.schema.control;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import javax.sql.DataSource;
import java.util.logging.Logger;

/**
 * Brings the database schema up to date when the application starts, before anything else
 * touches it: beans that need the schema declare {@code @DependsOn("SchemaMigration")}.
 * Flyway serialises concurrent starts with a PostgreSQL advisory lock, so several servers may
 * start against one database at once; a server finding the schema current changes nothing.
 * The production guard runs before it: a server that refuses to start touches no schema.
 */
@Startup
@Singleton(name = "SchemaMigration")
@DependsOn("ProductionGuard")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class.getName());

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource dataSource;

    @jakarta.inject.Inject
    SchemaReady ready;

    @PostConstruct
    void migrate() {
        MigrateResult result = Flyway.configure(getClass().getClassLoader())
                .dataSource(dataSource)
                // db/migration and db/callback each hold an empty flyway.location: Liberty's class
                // loader resolves files, not folders
                .locations("classpath:db/migration")
                .failOnMissingLocations(true)
                .load()
                .migrate();
        LOG.info(() -> "Schema at version " + result.targetSchemaVersion
                + " (" + result.migrationsExecuted + " migration(s) applied now)");
        ready.open();
    }
}

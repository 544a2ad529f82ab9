package io.outboxrelay.example.schema;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.flywaydb.core.Flyway;

import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The sample's own tables (orders, stock, notifications), migrated by the sample's own Flyway history
 * after Outbox Relay has migrated its tables: an application that adopts the outbox keeps its schema
 * history as it is.
 */
@Startup
@Singleton(name = "SampleSchemaMigration")
@DependsOn("OutboxRelaySchemaMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SampleSchemaMigration {

    private static final Logger LOG = Logger.getLogger(SampleSchemaMigration.class.getName());

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource dataSource;

    @Inject
    SampleSchema schema;

    @PostConstruct
    void migrate() {
        var result = Flyway.configure(getClass().getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/example") // holds an empty flyway.location: Liberty resolves files, not folders
                .callbackLocations("classpath:db/example")
                .table("example_schema_history")
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .failOnMissingLocations(true)
                .load()
                .migrate();
        LOG.info(() -> "Sample schema at version " + result.targetSchemaVersion);
        schema.migrated();
    }
}

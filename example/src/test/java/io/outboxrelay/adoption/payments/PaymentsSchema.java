package io.outboxrelay.adoption.payments;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import org.flywaydb.core.Flyway;

import javax.sql.DataSource;

/** The host's own tables under its own Flyway history, beside Outbox Relay's. */
@Startup
@Singleton
public class PaymentsSchema {

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource database;

    @PostConstruct
    void migrate() {
        Flyway.configure(getClass().getClassLoader())
                .dataSource(database)
                .locations("classpath:db/payments")
                .callbackLocations("classpath:db/payments")
                .table("payments_schema_history")
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }
}

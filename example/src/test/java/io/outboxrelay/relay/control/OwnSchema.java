package io.outboxrelay.relay.control;

import io.outboxrelay.schema.boundary.SchemaMigration;
import io.outboxrelay.support.Database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/** A schema of its own for one test, with the outbox's tables migrated into it: what it provokes is nobody else's. */
final class OwnSchema {

    private OwnSchema() {
    }

    /** Creates and migrates a schema named {@code prefix} and a random suffix; returns its name. */
    static String migrated(String prefix) {
        String schema = prefix + UUID.randomUUID().toString().replace("-", "");
        SchemaMigration.flyway(OwnSchema.class.getClassLoader())
                .dataSource(Database.URL, Database.USER, Database.PASSWORD)
                .schemas(schema).createSchemas(true)
                .load().migrate();
        return schema;
    }

    static void drop(String schema) throws SQLException {
        try (Connection ddl = Database.connect(); Statement drop = ddl.createStatement()) {
            drop.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}

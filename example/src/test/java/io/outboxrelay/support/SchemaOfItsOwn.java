package io.outboxrelay.support;

import io.outboxrelay.schema.boundary.SchemaMigration;
import org.flywaydb.core.api.configuration.FluentConfiguration;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A schema of a test's own in the real PostgreSQL, migrated by the core jar's migrations as the server's schema is:
 * rows committed there are out of the server's sight, so its relay never claims them. Closing drops the schema.
 */
public final class SchemaOfItsOwn implements AutoCloseable {

    private final String name;

    private SchemaOfItsOwn(String name) {
        this.name = name;
    }

    /** A fresh, not yet created schema whose name starts with the prefix. */
    public static SchemaOfItsOwn named(String prefix) {
        return new SchemaOfItsOwn(prefix + UUID.randomUUID().toString().replace("-", ""));
    }

    public String name() {
        return name;
    }

    /** Creates the schema if need be and migrates it to the newest version. */
    public void migrate() {
        migrateTo(null);
    }

    /** Creates the schema if need be and migrates it up to the given version (an earlier release's); null: the newest. */
    public void migrateTo(String version) {
        FluentConfiguration configuration = SchemaMigration.flyway(SchemaOfItsOwn.class.getClassLoader())
                .dataSource(Database.URL, Database.USER, Database.PASSWORD)
                .schemas(name)
                .createSchemas(true);
        if (version != null) {
            configuration.target(version);
        }
        configuration.load().migrate();
    }

    /** A connection whose unqualified names resolve in this schema. */
    public Connection connect() throws SQLException {
        Connection connection = Database.connect();
        try (Statement path = connection.createStatement()) {
            path.execute("SET search_path TO " + name);
        }
        return connection;
    }

    @Override
    public void close() throws SQLException {
        try (Connection connection = Database.connect(); Statement ddl = connection.createStatement()) {
            ddl.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }
}

package io.outboxrelay.health.boundary;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.schema.boundary.SchemaMigration;
import io.outboxrelay.schema.boundary.SchemaReady;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Ready when PostgreSQL answers and the schema has been migrated: all an append needs. Kafka is
 * deliberately not part of readiness (see {@link KafkaHealth}): while it is away, appends go on and the
 * relay catches up afterwards.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    OutboxDataSources dataSources;

    @Inject
    SchemaReady schema;

    /** Migrations recorded in the outbox's own history; 0 when its schema was applied by hand. */
    private static long migrationsApplied(Statement statement) throws SQLException {
        try (ResultSet history = statement.executeQuery(
                "SELECT to_regclass('" + SchemaMigration.HISTORY_TABLE + "') IS NOT NULL")) {
            history.next();
            if (!history.getBoolean(1)) {
                return 0;
            }
        }
        try (ResultSet applied = statement.executeQuery("SELECT count(*) FROM " + SchemaMigration.HISTORY_TABLE
                + " WHERE success AND type <> 'BASELINE'")) {
            applied.next();
            return applied.getLong(1);
        }
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database");
        if (!schema.await(Duration.ZERO)) {
            return response.down().withData("error", "schema not migrated yet").build();
        }
        try (Connection connection = dataSources.nonTransactional().getConnection();
             Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(3);
            statement.execute("SELECT 1 FROM outbox_event LIMIT 0"); // the outbox's table is there
            return response.up().withData("migrationsApplied", migrationsApplied(statement)).build();
        } catch (SQLException unreachable) {
            return response.down().withData("error", "database unavailable (SQLState " + unreachable.getSQLState() + ")").build();
        }
    }
}

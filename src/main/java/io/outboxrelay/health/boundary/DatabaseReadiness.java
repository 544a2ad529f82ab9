package io.outboxrelay.health.boundary;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Ready only when PostgreSQL answers and the schema has been migrated. */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource dataSource;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database");
        try (Connection connection = dataSource.getConnection();
             Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(3);
            try (ResultSet version = statement.executeQuery(
                    "SELECT count(*) FROM flyway_schema_history WHERE success")) {
                version.next();
                return response.up().withData("migrationsApplied", version.getLong(1)).build();
            }
        } catch (SQLException unreachable) {
            return response.down().withData("error", "database unavailable (SQLState " + unreachable.getSQLState() + ")").build();
        }
    }
}

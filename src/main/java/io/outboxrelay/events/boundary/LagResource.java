package io.outboxrelay.events.boundary;

import io.outboxrelay.events.control.ConsumerLag;
import io.outboxrelay.events.control.PublishRate;
import jakarta.annotation.Resource;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far behind things are: rows per status, the age of the oldest event not yet published,
 * this server's publish rate, and each consumer group's lag per partition.
 */
@Path("lag")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
public class LagResource {

    /**
     * Exact counts for the states that need work (they sit in small partial indexes); SENT,
     * which only grows, is PostgreSQL's estimate so this stays cheap on a huge table.
     */
    private static final String COUNTS = """
            SELECT status, count(*) AS rows FROM outbox_event WHERE status <> 'SENT' GROUP BY status
            UNION ALL
            SELECT 'SENT', greatest(0, (SELECT reltuples::bigint FROM pg_class WHERE relname = 'outbox_event')
                        - (SELECT count(*) FROM outbox_event WHERE status <> 'SENT'))""";

    private static final String OLDEST_PENDING = """
            SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)
              FROM outbox_event WHERE status IN ('PENDING', 'IN_FLIGHT')""";

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource dataSource;

    @Inject
    PublishRate publishRate;

    @Inject
    ConsumerLag consumerLag;

    @GET
    public Map<String, Object> lag() throws SQLException {
        Map<String, Object> lag = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            Map<String, Long> rows = new TreeMap<>();
            try (ResultSet counts = statement.executeQuery(COUNTS)) {
                while (counts.next()) {
                    rows.put(counts.getString("status"), counts.getLong("rows"));
                }
            }
            lag.put("rowsByStatus", rows);
            try (ResultSet oldest = statement.executeQuery(OLDEST_PENDING)) {
                oldest.next();
                lag.put("oldestPendingAgeSeconds", oldest.getDouble(1));
            }
        }
        lag.put("publishRatePerSecond", publishRate.perSecond());
        try {
            List<ConsumerLag.PartitionLag> consumers = consumerLag.all();
            lag.put("consumerGroups", consumers);
        } catch (Exception kafkaUnavailable) {
            lag.put("consumerGroups", List.of());
            lag.put("consumerGroupsError", "Kafka did not answer: " + kafkaUnavailable.getClass().getSimpleName());
        }
        return lag;
    }
}

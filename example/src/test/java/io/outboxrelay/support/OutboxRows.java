package io.outboxrelay.support;

import org.awaitility.Awaitility;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Outbox rows written straight into the real PostgreSQL, as any application's transaction would
 * leave them, and read back to see what the relay made of them.
 */
public final class OutboxRows {

    public static final Duration DEADLINE = Duration.ofSeconds(120);

    private static final Set<String> FINAL = Set.of("SENT", "DLT", "DEAD");

    private static final String INSERT = """
            INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, event_version, topic,
                                      payload, headers, status, lease_owner, lease_until, next_attempt_at)
            VALUES (?, ?, ?, ?, 1, ?, ?::jsonb, ?::jsonb, ?, ?, now() + ?::interval, now() + ?::interval)
            RETURNING id""";

    private static final String SELECT = """
            SELECT id, event_id, status, attempts, last_error, kafka_partition, kafka_offset, published_at,
                   last_attempt_at, first_failed_at, created_at
            FROM outbox_event_state""";

    private OutboxRows() {
    }

    /** What an application appends: the payload and headers are JSON text. */
    public record Event(String aggregateType, String aggregateId, String eventType, String topic, String payload,
                        String headers) {

        public static Event of(String topic, String aggregateId, String payload) {
            return new Event("Shipment", aggregateId, "ShipmentBooked", topic, payload,
                    "{\"correlation-id\": \"corr-" + aggregateId + "\"}");
        }
    }

    /** A row as inserted: its id (publication order within the aggregate) and event id. */
    public record Inserted(long id, UUID eventId, Event event) {
    }

    /** A row inserted with a lease on it, and when that lease ends by the database's clock. */
    public record Leased(Inserted row, Instant leaseUntil) {
    }

    /** A row as the relay left it. */
    public record Row(long id, UUID eventId, String status, int attempts, String lastError, Integer kafkaPartition,
                      Long kafkaOffset, Instant publishedAt, Instant lastAttemptAt, Instant firstFailedAt,
                      Instant createdAt) {
    }

    /** Inserts a PENDING row that is due now. */
    public static Inserted insert(Event event) {
        return insertAll(List.of(event)).get(0);
    }

    /** Inserts PENDING rows that are due now, each committed on its own, in list order (so ids ascend). */
    public static List<Inserted> insertAll(List<Event> events) {
        return insert(events, "PENDING", null, null);
    }

    /**
     * Inserts a row that a server of an earlier release claimed and then vanished with: IN_FLIGHT, the lease in
     * the row itself, expired a minute ago. Since the lease table came, no row may become IN_FLIGHT; such rows
     * exist only from before that migration, so the constraint is lifted for this one insert (in its transaction:
     * no other session sees the table without it).
     */
    public static Inserted insertAbandonedByEarlierRelease(Event event, String leaseOwner) {
        try (Connection connection = Database.connect()) {
            connection.setAutoCommit(false);
            try (Statement ddl = connection.createStatement()) {
                ddl.execute("ALTER TABLE outbox_event DROP CONSTRAINT outbox_event_no_new_in_flight");
                Inserted row = insert(connection, List.of(event), "IN_FLIGHT", leaseOwner, "-1 minute").get(0);
                ddl.execute("ALTER TABLE outbox_event ADD CONSTRAINT outbox_event_no_new_in_flight"
                        + " CHECK (status <> 'IN_FLIGHT') NOT VALID");
                connection.commit();
                return row;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not insert an outbox row of an earlier release", e);
        }
    }

    /**
     * Inserts a row that a server of an earlier release then published and marked SENT, knowing nothing of
     * the queue of unsent events.
     */
    public static Inserted insertSentByEarlierRelease(Event event) {
        try (Connection connection = Database.connect()) {
            connection.setAutoCommit(false);
            Inserted row = insert(connection, List.of(event), "PENDING", null, null).get(0);
            try (PreparedStatement sent = connection.prepareStatement("UPDATE outbox_event SET status = 'SENT',"
                    + " kafka_partition = 0, kafka_offset = 0, published_at = now() WHERE id = ?")) {
                sent.setLong(1, row.id());
                sent.executeUpdate();
            }
            connection.commit();
            return row;
        } catch (SQLException e) {
            throw new IllegalStateException("could not insert an outbox row an earlier release published", e);
        }
    }

    /**
     * Inserts a PENDING row and a lease on it in its queue row, as a relay's claim leaves them, held by {@code leaseOwner} for
     * {@code leaseFor} (an interval, negative for a lease that ran out that long ago).
     */
    public static Leased insertLeased(Event event, String leaseOwner, String leaseFor) {
        try (Connection connection = Database.connect()) {
            connection.setAutoCommit(false);
            Inserted row = insert(connection, List.of(event), "PENDING", null, null).get(0);
            try (PreparedStatement lease = connection.prepareStatement("UPDATE outbox_unsent"
                    + " SET lease_owner = ?, lease_until = now() + ?::interval WHERE id = ? RETURNING lease_until")) {
                lease.setString(1, leaseOwner);
                lease.setString(2, leaseFor);
                lease.setLong(3, row.id());
                try (ResultSet until = lease.executeQuery()) {
                    until.next();
                    Instant leaseUntil = until.getObject(1, OffsetDateTime.class).toInstant();
                    connection.commit();
                    return new Leased(row, leaseUntil);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not insert a leased outbox row", e);
        }
    }

    public static Row row(long id) {
        List<Row> rows = select(SELECT + " WHERE id = ?", id);
        if (rows.isEmpty()) {
            throw new AssertionError("no outbox row with id " + id);
        }
        return rows.get(0);
    }

    /** Every row destined for the topic, in id order. */
    public static List<Row> onTopic(String topic) {
        return select(SELECT + " WHERE topic = ? ORDER BY id", topic);
    }

    /** Waits until the row has the status; fails at once if it ends in another final status. */
    public static Row awaitStatus(long id, String status) {
        return await(id, "status " + status, row -> mayStillBecome(row, status) && row.status().equals(status));
    }

    /** Waits until an attempt to publish the row has failed and the row waits, PENDING, for its next attempt. */
    public static Row awaitRetrying(long id) {
        return await(id, "a failed attempt and a pending retry", row -> mayStillBecome(row, "PENDING")
                && row.status().equals("PENDING") && row.attempts() >= 1
                && row.lastError() != null && !row.lastError().isBlank());
    }

    /**
     * Waits until the row satisfies the condition. Polls often, as some states last only as long as the
     * test server's retry backoff (200 ms at first).
     */
    public static Row await(long id, String what, Predicate<Row> condition) {
        return Awaitility.await("outbox row " + id + " to reach " + what)
                .atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> row(id), condition);
    }

    /** Waits until every one of the topic's {@code count} rows is SENT; fails at once if one ends DLT or DEAD. */
    public static List<Row> awaitAllSent(String topic, int count) {
        return Awaitility.await("all " + count + " outbox rows for " + topic + " to be SENT")
                .atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> onTopic(topic), rows -> rows.stream().allMatch(row -> mayStillBecome(row, "SENT"))
                        && rows.size() == count && rows.stream().allMatch(row -> row.status().equals("SENT")));
    }

    /** True unless the row ended in another final status: then it fails the wait at once rather than at its deadline. */
    private static boolean mayStillBecome(Row row, String expected) {
        if (FINAL.contains(row.status()) && !row.status().equals(expected)) {
            throw new AssertionError("expected the event to become " + expected + " but it ended " + row.status()
                    + ": " + row);
        }
        return true;
    }

    private static List<Inserted> insert(List<Event> events, String status, String leaseOwner, String due) {
        try (Connection connection = Database.connect()) {
            return insert(connection, events, status, leaseOwner, due);
        } catch (SQLException e) {
            throw new IllegalStateException("could not insert outbox rows", e);
        }
    }

    private static List<Inserted> insert(Connection connection, List<Event> events, String status, String leaseOwner,
                                         String due) throws SQLException {
        List<Inserted> inserted = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(INSERT)) {
            for (Event event : events) {
                UUID eventId = UUID.randomUUID();
                int i = 0;
                statement.setObject(++i, eventId);
                statement.setString(++i, event.aggregateType());
                statement.setString(++i, event.aggregateId());
                statement.setString(++i, event.eventType());
                statement.setString(++i, event.topic());
                statement.setString(++i, event.payload());
                statement.setString(++i, event.headers());
                statement.setString(++i, status);
                statement.setString(++i, leaseOwner);
                statement.setString(++i, due); // lease_until: none unless leased
                statement.setString(++i, due == null ? "0 seconds" : due);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    inserted.add(new Inserted(result.getLong(1), eventId, event));
                }
            }
            return inserted;
        }
    }

    private static List<Row> select(String sql, Object parameter) {
        try (Connection connection = Database.connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, parameter);
            try (ResultSet result = statement.executeQuery()) {
                List<Row> rows = new ArrayList<>();
                while (result.next()) {
                    rows.add(new Row(result.getLong("id"), result.getObject("event_id", UUID.class),
                            result.getString("status"), result.getInt("attempts"), result.getString("last_error"),
                            result.getObject("kafka_partition", Integer.class), result.getObject("kafka_offset", Long.class),
                            instant(result, "published_at"), instant(result, "last_attempt_at"),
                            instant(result, "first_failed_at"), instant(result, "created_at")));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read outbox rows", e);
        }
    }

    private static Instant instant(ResultSet result, String column) throws SQLException {
        OffsetDateTime value = result.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}

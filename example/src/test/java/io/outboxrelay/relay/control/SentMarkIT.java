package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.relay.control.Outcomes.Sent;
import io.outboxrelay.relay.control.RelayStore.Landed;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.SchemaOfItsOwn;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statements that record published events, on the real PostgreSQL, in a schema of the test's own: what the console
 * shows of each event is where that very record landed. Connect mode's mark ({@link RelayStore#markLanded}; the mode
 * end to end is {@code ConnectModeIT}'s) with a poll's records in an order of their own, a record seen twice, an
 * event published before and an event the outbox does not hold; the relay's own ({@link RelayStore#markSent}) for a
 * batch with an event that has a record already.
 */
class SentMarkIT {

    private static final Instant LANDED = Instant.parse("2026-12-07T10:00:00Z");
    private static final Instant PUBLISHED_BEFORE = Instant.parse("2026-12-01T08:00:00Z");

    @Test
    void connectModeMarksEachEventWhereItsRecordLandedAndTheUnseenComeBack() throws SQLException {
        try (SchemaOfItsOwn schema = SchemaOfItsOwn.named("connect_mark_it_")) {
            schema.migrate();
            Appended first;
            Appended second;
            Appended published;
            try (Connection connection = schema.connect()) {
                first = append(connection);
                second = append(connection);
                published = append(connection);
                // published before, by the polling relay: its queue row gone, its record written
                execute(connection, "DELETE FROM outbox_unsent WHERE id = " + published.id());
                execute(connection, "INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)"
                        + " VALUES (" + published.id() + ", 5, 50, '" + PUBLISHED_BEFORE + "')");
            }
            UUID unknown = UUID.randomUUID();

            Set<UUID> unseen = storeIn(schema).markLanded(List.of(
                    new Landed(second.eventId(), 2, 200, LANDED),
                    new Landed(unknown, 9, 900, LANDED),
                    new Landed(first.eventId(), 1, 100, LANDED),
                    new Landed(published.eventId(), 3, 300, LANDED),
                    new Landed(first.eventId(), 7, 700, LANDED))); // the connector sent it again

            assertThat(unseen).as("the records of events this outbox does not hold").containsExactly(unknown);
            try (Connection connection = schema.connect()) {
                assertThat(records(connection)).as("where each event landed, as the console shows it").isEqualTo(Map.of(
                        first.id(), "1/100 at " + LANDED,
                        second.id(), "2/200 at " + LANDED,
                        published.id(), "5/50 at " + PUBLISHED_BEFORE)); // as published before
                assertThat(queued(connection)).as("nothing left for the relay to send").isEmpty();
            }
        }
    }

    @Test
    void aBatchWithAnEventPublishedBeforeIsMarkedWhereEachOfItsRecordsLanded() throws SQLException {
        try (SchemaOfItsOwn schema = SchemaOfItsOwn.named("sent_mark_it_")) {
            schema.migrate();
            Appended first;
            Appended again;
            try (Connection connection = schema.connect()) {
                first = append(connection);
                again = append(connection);
                // published before and put back in the queue by hand: its record is still there
                execute(connection, "INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)"
                        + " VALUES (" + again.id() + ", 5, 50, '" + PUBLISHED_BEFORE + "')");
                execute(connection, "UPDATE outbox_unsent SET lease_owner = 'relay-a',"
                        + " lease_until = now() + interval '1 minute'");
            }

            storeIn(schema).markSent("relay-a", List.of(new Sent(first.id(), 1, 100), new Sent(again.id(), 2, 200)),
                    LANDED);

            try (Connection connection = schema.connect()) {
                assertThat(records(connection)).as("where each event landed this time").isEqualTo(Map.of(
                        first.id(), "1/100 at " + LANDED,
                        again.id(), "2/200 at " + LANDED));
                assertThat(queued(connection)).as("nothing left for the relay to send").isEmpty();
            }
        }
    }

    /** A store whose statements run in the given schema, on connections of their own. */
    private static RelayStore storeIn(SchemaOfItsOwn schema) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setUrl(Database.URL);
        dataSource.setUser(Database.USER);
        dataSource.setPassword(Database.PASSWORD);
        dataSource.setCurrentSchema(schema.name());
        RelayConnections connections = new RelayConnections();
        connections.dataSources = new OutboxDataSources() {
            @Override
            public DataSource nonTransactional() {
                return dataSource;
            }
        };
        RelayStore store = new RelayStore();
        store.connections = connections;
        return store;
    }

    /** An outbox row: its id, and the event id a consumer and Connect mode know it by. */
    private record Appended(long id, UUID eventId) {
    }

    private static Appended append(Connection connection) throws SQLException {
        UUID eventId = UUID.randomUUID();
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers)
                VALUES (?, 'Payment', 'payment-1', 'PaymentMade', 1, 'payments', '{}'::jsonb, '{}'::jsonb) RETURNING id""")) {
            insert.setObject(1, eventId);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return new Appended(row.getLong(1), eventId);
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static Map<Long, String> records(Connection connection) throws SQLException {
        Map<Long, String> records = new TreeMap<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT id, kafka_partition, kafka_offset, published_at FROM outbox_sent")) {
            while (rows.next()) {
                records.put(rows.getLong(1), rows.getInt(2) + "/" + rows.getLong(3) + " at "
                        + rows.getObject(4, OffsetDateTime.class).toInstant());
            }
        }
        return records;
    }

    private static List<Long> queued(Connection connection) throws SQLException {
        List<Long> queued = new ArrayList<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT id FROM outbox_unsent")) {
            while (rows.next()) {
                queued.add(rows.getLong(1));
            }
        }
        return queued;
    }
}

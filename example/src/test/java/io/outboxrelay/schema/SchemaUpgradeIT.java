package io.outboxrelay.schema;

import io.outboxrelay.support.SchemaOfItsOwn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The core jar's migrations upgrading a populated outbox of an earlier release, on the real PostgreSQL, in a
 * schema of this test's own: the events it had not published yet are queued for the relay as they stood,
 * with the leases relays held on them, and from then on every writer's changes reach the queue.
 */
class SchemaUpgradeIT {

    private final SchemaOfItsOwn schema = SchemaOfItsOwn.named("upgrade_it_");

    @AfterEach
    void dropSchema() throws SQLException {
        schema.close();
    }

    @Test
    void theBacklogOfAnEarlierReleaseIsQueuedForTheRelayAndStaysInStepAfterwards() throws SQLException {
        schema.migrateTo("2"); // a release that still wrote IN_FLIGHT into the row
        try (Connection connection = schema.connect()) {
            long first = insert(connection, "order-1", "PENDING");
            long second = insert(connection, "order-1", "PENDING");
            long inFlight = insert(connection, "order-2", "IN_FLIGHT");
            long deadLetter = insert(connection, "order-3", "DLT");
            insert(connection, "order-4", "SENT"); // published already: not queued

            schema.migrate();

            assertThat(queue(connection)).as("queued by the upgrade").isEqualTo(Map.of(
                    first, "PENDING", second, "PENDING", inFlight, "PENDING", deadLetter, "DLT"));
            assertThat(aggregateKeys(connection, first, second, inFlight))
                    .as("one aggregate, one key").satisfies(keys -> {
                        assertThat(keys.get(0)).isEqualTo(keys.get(1));
                        assertThat(keys.get(2)).isNotEqualTo(keys.get(0));
                    });

            long appended = insert(connection, "order-5", "PENDING");
            update(connection, "UPDATE outbox_event SET status = 'PENDING' WHERE id = ?", deadLetter); // a replay
            update(connection, "UPDATE outbox_event SET status = 'DEAD' WHERE id = ?", second);
            update(connection, "UPDATE outbox_event SET status = 'SENT' WHERE id = ?", first); // a relay of any release
            update(connection, "DELETE FROM outbox_event WHERE id = ?", inFlight);

            assertThat(queue(connection)).as("kept in step with the outbox").isEqualTo(Map.of(
                    second, "DEAD", deadLetter, "PENDING", appended, "PENDING"));
            assertThat(indexesNamingStatus(connection))
                    .as("indexes of outbox_event that would keep recording an outcome from being a heap-only update")
                    .isEmpty();
        }
    }

    @Test
    void leasesOfTheLeaseTableReleaseGoWithTheirQueuedRowsAndItsRelaysClaimNoMore() throws SQLException {
        schema.migrateTo("5"); // a release that leased in outbox_lease
        try (Connection connection = schema.connect()) {
            long held = insert(connection, "order-1", "PENDING");
            long ranOut = insert(connection, "order-2", "PENDING");
            long waiting = insert(connection, "order-3", "PENDING");
            update(connection, "INSERT INTO outbox_lease (id, lease_owner, lease_until)"
                    + " VALUES (?, 'earlier-relay', now() + interval '5 minutes')", held);
            update(connection, "INSERT INTO outbox_lease (id, lease_owner, lease_until)"
                    + " VALUES (?, 'earlier-relay', now() - interval '1 minute')", ranOut);

            schema.migrate();

            assertThat(leaseOwners(connection)).as("the live lease moved into its queued row, nothing else")
                    .isEqualTo(Map.of(held, "earlier-relay", ranOut, "-", waiting, "-"));
            assertThatThrownBy(() -> update(connection, "INSERT INTO outbox_lease (id, lease_owner, lease_until)"
                    + " VALUES (?, 'earlier-relay', now() + interval '5 minutes')", waiting))
                    .as("a claim of the earlier release").hasMessageContaining("outbox_lease_retired");
            update(connection, "DELETE FROM outbox_lease WHERE id = ?", held); // its outcome still records
        }
    }

    @Test
    void eventsPublishedBeforeTheUpgradeStaySentAndAPublishedRecordFollowsItsRow() throws SQLException {
        schema.migrateTo("13"); // a release that marked SENT in the outbox row itself
        try (Connection connection = schema.connect()) {
            long markedInRow = insert(connection, "order-1", "PENDING");
            update(connection, "UPDATE outbox_event SET status = 'SENT', kafka_partition = 2, kafka_offset = 40,"
                    + " published_at = now() WHERE id = ?", markedInRow);
            long waiting = insert(connection, "order-2", "PENDING");

            schema.migrate();

            // published by this release, as its relay's mark does: the queue row goes, the record is written
            update(connection, "DELETE FROM outbox_unsent WHERE id = ?", waiting);
            update(connection, "INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)"
                    + " VALUES (?, 1, 7, now())", waiting);
            assertThat(shown(connection)).as("what the console and the API read").isEqualTo(Map.of(
                    markedInRow, "SENT at 2/40", waiting, "SENT at 1/7"));

            update(connection, "UPDATE outbox_event SET headers = '{\"fixed\": \"by hand\"}' WHERE id = ?", waiting);
            assertThat(queue(connection)).as("an operator's update of a published event's row does not send it again")
                    .isEmpty();

            update(connection, "DELETE FROM outbox_event WHERE id = ?", waiting);
            assertThat(shown(connection)).as("its record went with it").isEqualTo(Map.of(markedInRow, "SENT at 2/40"));
            try (Statement query = connection.createStatement();
                 ResultSet left = query.executeQuery("SELECT count(*) FROM outbox_sent")) {
                left.next();
                assertThat(left.getLong(1)).as("records left without their rows").isZero();
            }
        }
    }

    private static Map<Long, String> shown(Connection connection) throws SQLException {
        Map<Long, String> shown = new TreeMap<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT id, status || ' at ' || kafka_partition || '/' || kafka_offset"
                     + " FROM outbox_event_state")) {
            while (rows.next()) {
                shown.put(rows.getLong(1), rows.getString(2));
            }
        }
        return shown;
    }

    private static Map<Long, String> leaseOwners(Connection connection) throws SQLException {
        Map<Long, String> owners = new TreeMap<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT id, coalesce(lease_owner, '-') FROM outbox_unsent")) {
            while (rows.next()) {
                owners.put(rows.getLong(1), rows.getString(2));
            }
        }
        return owners;
    }

    private List<String> indexesNamingStatus(Connection connection) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT indexname FROM pg_indexes"
                + " WHERE schemaname = ? AND tablename = 'outbox_event' AND indexdef LIKE '%status%'")) {
            query.setString(1, schema.name());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
            }
        }
        return names;
    }

    private static long insert(Connection connection, String aggregateId, String status) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, status)
                VALUES (?, 'Order', ?, 'OrderPlaced', 'orders', '{}', ?) RETURNING id""")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, aggregateId);
            insert.setString(3, status);
            try (ResultSet id = insert.executeQuery()) {
                id.next();
                return id.getLong(1);
            }
        }
    }

    private static void update(Connection connection, String sql, long id) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setLong(1, id);
            assertThat(update.executeUpdate()).as(sql).isEqualTo(1);
        }
    }

    private static Map<Long, String> queue(Connection connection) throws SQLException {
        Map<Long, String> queued = new TreeMap<>();
        try (Statement query = connection.createStatement();
             ResultSet rows = query.executeQuery("SELECT id, status FROM outbox_unsent")) {
            while (rows.next()) {
                queued.put(rows.getLong("id"), rows.getString("status"));
            }
        }
        return queued;
    }

    private static List<Long> aggregateKeys(Connection connection, long... ids) throws SQLException {
        List<Long> keys = new ArrayList<>();
        for (long id : ids) {
            try (PreparedStatement query = connection.prepareStatement("SELECT aggregate_key FROM outbox_unsent WHERE id = ?")) {
                query.setLong(1, id);
                try (ResultSet key = query.executeQuery()) {
                    key.next();
                    keys.add(key.getLong(1));
                }
            }
        }
        return keys;
    }
}

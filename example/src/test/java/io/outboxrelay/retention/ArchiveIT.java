package io.outboxrelay.retention;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.retention.control.RetentionStore;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retention's archive mode inside the server, against the real PostgreSQL: a SENT row past its days moves to
 * outbox_event_archive whole, in one statement, and the archive's own retention deletes it later. (The shared
 * test server runs retention in its default mode, deleting; this calls the store the job calls.)
 */
@ExtendWith(ArquillianExtension.class)
class ArchiveIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "archive-it.war").addClasses(RetentionStore.class, OutboxDataSources.class);
    }

    @Inject
    RetentionStore store;

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource database;

    @Test
    void aSentRowPastItsDaysMovesToTheArchiveWholeAndTheArchivesRetentionDeletesItLater() throws Exception {
        // three days old, with an id below any the database handed out (retention walks ids from the oldest)
        long id = -ThreadLocalRandom.current().nextLong(3_000_000_000_000L, 4_000_000_000_000L);
        UUID eventId = UUID.randomUUID();
        update("INSERT INTO outbox_event (id, event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,"
                + " status, attempts, next_attempt_at, kafka_partition, kafka_offset, created_at, updated_at, published_at,"
                + " replay_count) OVERRIDING SYSTEM VALUE VALUES (?, ?, 'Archive', 'a-1', 'Archived', 'archive.events',"
                + " '{\"kept\": true}'::jsonb, '{\"correlation-id\": \"c-1\"}'::jsonb, 'SENT', 2, now(), 4, 41,"
                + " now() - interval '3 days', now() - interval '3 days', now() - interval '3 days', 1)", id, eventId);

        int moved = store.archiveSent(OffsetDateTime.now().minusDays(2), 1000);

        assertTrue(moved >= 1, "moved " + moved);
        assertEquals(0, count("SELECT count(*) FROM outbox_event WHERE id = ?", id), "gone from the outbox");
        assertEquals(1, count("SELECT count(*) FROM outbox_event_archive WHERE id = ? AND event_id = ? AND status = 'SENT'"
                + " AND payload = '{\"kept\": true}'::jsonb AND headers->>'correlation-id' = 'c-1' AND attempts = 2"
                + " AND kafka_partition = 4 AND kafka_offset = 41 AND replay_count = 1"
                + " AND published_at < now() - interval '2 days' AND archived_at > now() - interval '1 minute'", id, eventId),
                "in the archive, every column as it was");

        assertTrue(store.deleteArchived(OffsetDateTime.now().minusDays(1), 1000) >= 0);
        assertEquals(1, count("SELECT count(*) FROM outbox_event_archive WHERE id = ?", id), "archived today: kept");
        store.deleteArchived(OffsetDateTime.now().plusMinutes(1), 1000);
        assertFalse(count("SELECT count(*) FROM outbox_event_archive WHERE id = ?", id) > 0, "past the archive's days: deleted");
    }

    private void update(String sql, Object... parameters) throws SQLException {
        try (Connection connection = database.getConnection(); PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters).executeUpdate();
        }
    }

    private long count(String sql, Object... parameters) throws SQLException {
        try (Connection connection = database.getConnection(); PreparedStatement statement = connection.prepareStatement(sql);
             ResultSet result = bind(statement, parameters).executeQuery()) {
            result.next();
            return result.getLong(1);
        }
    }

    private static PreparedStatement bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}

package io.outboxrelay.retention.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;

/**
 * One batch of deletions per call, each committed on its own (auto-commit), so a long cleanup
 * never holds locks or a transaction open. Batches walk the primary key (oldest rows first) or
 * the consumed_at index, and skip rows another transaction holds.
 */
@ApplicationScoped
public class RetentionStore {

    /**
     * Walks the primary key from the oldest row, and no further than the first row created after
     * the cut-off (found the same way, past the few old rows that stay): a run with nothing to
     * delete does not scan the millions of recent rows. A row committed out of id order is
     * caught by a later run.
     */
    private static final String SENT = """
            DELETE FROM outbox_event WHERE id IN (
                SELECT id FROM outbox_event
                 WHERE status = 'SENT' AND published_at < ?
                   AND id < coalesce((SELECT id FROM outbox_event WHERE created_at >= ? ORDER BY id LIMIT 1),
                                     9223372036854775807)
                 ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private static final String DEAD_LETTERS = """
            DELETE FROM outbox_event WHERE id IN (
                SELECT o.id FROM outbox_unsent u JOIN outbox_event o ON o.id = u.id
                 WHERE u.status IN ('DLT', 'DEAD') AND o.status IN ('DLT', 'DEAD') AND o.updated_at < ?
                 ORDER BY u.status, u.id LIMIT ? FOR UPDATE OF o SKIP LOCKED)""";

    private static final String CONSUMED = """
            DELETE FROM consumed_event WHERE (consumer_group, event_id) IN (
                SELECT consumer_group, event_id FROM consumed_event WHERE consumed_at < ?
                 ORDER BY consumed_at LIMIT ? FOR UPDATE SKIP LOCKED)""";

    @Inject
    OutboxDataSources dataSources;

    /** SENT rows published before {@code cutoff}. */
    public int deleteSent(OffsetDateTime cutoff, int batch) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement delete = connection.prepareStatement(SENT)) {
            delete.setObject(1, cutoff);
            delete.setObject(2, cutoff);
            delete.setInt(3, batch);
            return delete.executeUpdate();
        }
    }

    /** DLT and DEAD rows last changed before {@code cutoff} (only when dead-letter retention is on). */
    public int deleteDeadLetters(OffsetDateTime cutoff, int batch) throws SQLException {
        return delete(DEAD_LETTERS, cutoff, batch);
    }

    /** Dedup-log rows written before {@code cutoff}. */
    public int deleteConsumed(OffsetDateTime cutoff, int batch) throws SQLException {
        return delete(CONSUMED, cutoff, batch);
    }

    private int delete(String sql, OffsetDateTime cutoff, int batch) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setObject(1, cutoff);
            delete.setInt(2, batch);
            return delete.executeUpdate();
        }
    }
}

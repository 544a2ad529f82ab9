package io.outboxrelay.retention.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;

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
     * caught by a later run. The batch's ids go to the primary key as one array: as a semi-join, where the
     * statistics say the table is empty (after a purge, until autovacuum analyzes it again), PostgreSQL may
     * run the batch's subquery once for every row of the table. The other purges below do the same.
     */
    private static final String SENT = """
            DELETE FROM outbox_event WHERE id = ANY (ARRAY(
                SELECT id FROM outbox_event
                 WHERE status = 'SENT' AND published_at < ?
                   AND id < coalesce((SELECT id FROM outbox_event WHERE created_at >= ? ORDER BY id LIMIT 1),
                                     9223372036854775807)
                 ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED))""";

    private static final String ROW_COLUMNS = """
            id, event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers, status,
            attempts, next_attempt_at, last_error, last_attempt_at, first_failed_at, lease_owner, lease_until,
            kafka_partition, kafka_offset, published_at, created_at, updated_at, replay_count""";

    /**
     * As {@link #SENT}, but the rows move to the archive: deleted and inserted there in one statement, so
     * either both happen or neither (a row the archive refuses fails the batch, and nothing is deleted).
     */
    private static final String ARCHIVE_SENT = "WITH moved AS (" + SENT + " RETURNING " + ROW_COLUMNS + ")"
            + " INSERT INTO outbox_event_archive (" + ROW_COLUMNS + ") SELECT " + ROW_COLUMNS + " FROM moved";

    private static final String ARCHIVED = """
            DELETE FROM outbox_event_archive WHERE id = ANY (ARRAY(
                SELECT id FROM outbox_event_archive WHERE archived_at < ?
                 ORDER BY archived_at LIMIT ? FOR UPDATE SKIP LOCKED))""";

    private static final String DEAD_LETTERS = """
            DELETE FROM outbox_event WHERE id = ANY (ARRAY(
                SELECT o.id FROM outbox_unsent u JOIN outbox_event o ON o.id = u.id
                 WHERE u.status IN ('DLT', 'DEAD') AND o.status IN ('DLT', 'DEAD') AND o.updated_at < ?
                 ORDER BY u.status, u.id LIMIT ? FOR UPDATE OF o SKIP LOCKED))""";

    private static final String CONSUMED = """
            DELETE FROM consumed_event WHERE (consumer_group, event_id) IN (
                SELECT consumer_group, event_id FROM consumed_event WHERE consumed_at < ?
                 ORDER BY consumed_at LIMIT ? FOR UPDATE SKIP LOCKED)""";

    /** Consumer dead letters in the given states, last changed before the cut-off. */
    private static final String CONSUMER_DEAD_LETTERS = """
            DELETE FROM consumer_dead_letter WHERE id = ANY (ARRAY(
                SELECT id FROM consumer_dead_letter WHERE status = ANY (?) AND updated_at < ?
                 ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED))""";

    @Inject
    OutboxDataSources dataSources;

    /** SENT rows published before {@code cutoff}. */
    public int deleteSent(OffsetDateTime cutoff, int batch) throws SQLException {
        return sent(SENT, cutoff, batch);
    }

    /** SENT rows published before {@code cutoff}, moved to {@code outbox_event_archive}; returns how many. */
    public int archiveSent(OffsetDateTime cutoff, int batch) throws SQLException {
        return sent(ARCHIVE_SENT, cutoff, batch);
    }

    /** Archived rows archived before {@code cutoff}. */
    public int deleteArchived(OffsetDateTime cutoff, int batch) throws SQLException {
        return delete(ARCHIVED, cutoff, batch);
    }

    private int sent(String sql, OffsetDateTime cutoff, int batch) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement delete = connection.prepareStatement(sql)) {
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

    /** Consumer dead letters in one of {@code states} (REPLAYED, DEAD_LETTERED) last changed before {@code cutoff}. */
    public int deleteConsumerDeadLetters(List<String> states, OffsetDateTime cutoff, int batch) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement delete = connection.prepareStatement(CONSUMER_DEAD_LETTERS)) {
            delete.setArray(1, connection.createArrayOf("varchar", states.toArray()));
            delete.setObject(2, cutoff);
            delete.setInt(3, batch);
            return delete.executeUpdate();
        }
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

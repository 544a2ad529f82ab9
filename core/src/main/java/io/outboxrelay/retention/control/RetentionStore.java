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

    /** The first row created at or after the cut-off: retention's walk stops there. */
    private static final String BOUND = """
            coalesce((SELECT id FROM outbox_event WHERE created_at >= ? ORDER BY id LIMIT 1), 9223372036854775807)""";

    /**
     * The published events' records (V014), walked by their key from the oldest, and no further than the first row
     * created after the cut-off (found the same way, past the few old rows that stay): a run with nothing to delete
     * does not scan the millions of recent rows. A row committed out of id order is caught by a later run. The
     * batch's ids go to the outbox's primary key as one array: as a semi-join, where the statistics say the table is
     * empty (after a purge, until autovacuum analyzes it again), PostgreSQL may run the batch's subquery once for
     * every row of the table. The other purges below do the same. The records go with their rows (the delete's
     * trigger).
     */
    private static final String PUBLISHED = """
            SELECT s.id FROM outbox_sent s
             WHERE s.published_at < ? AND s.id < """ + BOUND + """

             ORDER BY s.id LIMIT ? FOR UPDATE OF s SKIP LOCKED""";

    /**
     * Rows that an earlier release marked SENT in the outbox row itself, walked by the outbox's primary key in the
     * same way; looked for once the records gave less than a batch, so this walk never steps over records still to
     * delete.
     */
    private static final String MARKED_IN_ROW = """
            SELECT id FROM outbox_event
             WHERE status = 'SENT' AND published_at < ? AND id < """ + BOUND + """

             ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED""";

    private static final String DELETE_ROWS = "DELETE FROM outbox_event WHERE id = ANY (ARRAY(%s))";

    private static final String ROW_COLUMNS = """
            id, event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers, status,
            attempts, next_attempt_at, last_error, last_attempt_at, first_failed_at, lease_owner, lease_until,
            kafka_partition, kafka_offset, published_at, created_at, updated_at, replay_count""";

    /**
     * The moved rows as {@code outbox_event_state} shows them (V014): SENT where they landed. Each row's record is
     * looked up by its id (a lateral probe of the key, whatever the statistics say); the statement reads the records
     * before the delete's trigger removes them.
     */
    private static final String MOVED_AS_SHOWN = """
            m.id, m.event_id, m.aggregate_type, m.aggregate_id, m.event_type, m.event_version, m.topic, m.payload,
            m.headers, CASE WHEN s.id IS NULL THEN m.status ELSE 'SENT' END, m.attempts, m.next_attempt_at,
            m.last_error, m.last_attempt_at, m.first_failed_at, CASE WHEN s.id IS NULL THEN m.lease_owner END,
            CASE WHEN s.id IS NULL THEN m.lease_until END, coalesce(s.kafka_partition, m.kafka_partition),
            coalesce(s.kafka_offset, m.kafka_offset), coalesce(s.published_at, m.published_at), m.created_at,
            CASE WHEN s.id IS NULL THEN m.updated_at ELSE greatest(m.updated_at, s.published_at) END, m.replay_count""";

    /**
     * As {@link #DELETE_ROWS}, but the rows move to the archive: deleted and inserted there in one statement, so
     * either both happen or neither (a row the archive refuses fails the batch, and nothing is deleted).
     */
    private static final String ARCHIVE_ROWS = "WITH moved AS (" + DELETE_ROWS + " RETURNING " + ROW_COLUMNS + ")"
            + " INSERT INTO outbox_event_archive (" + ROW_COLUMNS + ") SELECT " + MOVED_AS_SHOWN
            + " FROM moved m LEFT JOIN LATERAL (SELECT * FROM outbox_sent r WHERE r.id = m.id) s ON true";

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
        return sent(DELETE_ROWS, cutoff, batch);
    }

    /** SENT rows published before {@code cutoff}, moved to {@code outbox_event_archive}; returns how many. */
    public int archiveSent(OffsetDateTime cutoff, int batch) throws SQLException {
        return sent(ARCHIVE_ROWS, cutoff, batch);
    }

    /** Archived rows archived before {@code cutoff}. */
    public int deleteArchived(OffsetDateTime cutoff, int batch) throws SQLException {
        return delete(ARCHIVED, cutoff, batch);
    }

    /** Up to {@code batch} SENT rows: those with a record first, then those marked in the row by an earlier release. */
    private int sent(String statement, OffsetDateTime cutoff, int batch) throws SQLException {
        int done = sentBatch(statement.formatted(PUBLISHED), cutoff, batch);
        return done < batch ? done + sentBatch(statement.formatted(MARKED_IN_ROW), cutoff, batch - done) : done;
    }

    private int sentBatch(String sql, OffsetDateTime cutoff, int batch) throws SQLException {
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

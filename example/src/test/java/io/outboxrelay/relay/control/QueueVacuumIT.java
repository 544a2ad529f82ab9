package io.outboxrelay.relay.control;

import io.outboxrelay.support.Database;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The relay's statistics task vacuums the queue while a backlog drains, so that its claims stop stepping over the
 * index entries of the events already published, and rebuilds the indexes a drained backlog left large, which every
 * later vacuum would read whole. The task runs here against a queue of its own schema, on the real PostgreSQL: a
 * queue's rows die as the relay's outcomes delete them, here as the events' rows are deleted (the queue's trigger
 * deletes theirs), and no relay claims from it.
 */
class QueueVacuumIT {

    private static final String INDEX_BYTES =
            "SELECT sum(pg_relation_size(indexrelid)) FROM pg_index WHERE indrelid = 'outbox_unsent'::regclass";
    private static final String QUEUE_INDEXES = "SELECT count(*) FROM pg_index WHERE indrelid = 'outbox_unsent'::regclass";
    private static final String INVALID_INDEXES =
            "SELECT count(*) FROM pg_index WHERE indrelid = 'outbox_unsent'::regclass AND NOT indisvalid";

    private String schema;
    private Connection connection;
    private TableStatistics statistics;

    @BeforeEach
    void queueOfItsOwn() throws SQLException {
        schema = OwnSchema.migrated("queue_vacuum_it_");
        connection = Database.connect();
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET search_path TO " + schema);
            // autovacuum stays out of it: it would take the dead rows away before the task looks
            sql.execute("ALTER TABLE outbox_unsent SET (autovacuum_enabled = false)");
        }
        statistics = new TableStatistics();
        statistics.dataSources = new OneConnection(connection);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        if (connection != null) {
            connection.close();
        }
        if (schema != null) {
            OwnSchema.drop(schema);
        }
    }

    @Test
    void aDrainingBacklogsPublishedRowsAreVacuumedAway() throws SQLException {
        append(45_000);
        leave(22_000);

        assertVacuumedByTheStatisticsTask();
        assertThat(count("SELECT count(*) FROM outbox_unsent")).as("the backlog still queued").isEqualTo(23_000);
    }

    @Test
    void aSmallQueueIsVacuumedOnceFiveThousandOfItsRowsDied() throws SQLException {
        append(5_040);
        leave(4_000);
        statistics.refreshIfStale();
        assertThat(count("SELECT vacuum_count FROM pg_stat_user_tables WHERE relid = 'outbox_unsent'::regclass"))
                .as("4,000 dead rows: not yet").isZero();

        leave(1_000); // a steady stream leaves few events waiting and many published since the last vacuum
        assertVacuumedByTheStatisticsTask();
        assertThat(count("SELECT count(*) FROM outbox_unsent")).as("the events still waiting").isEqualTo(40);
    }

    @Test
    void theIndexesADrainedBacklogLeftLargeAreRebuiltAroundTheEventsStillWaiting() throws SQLException {
        append(1_000);
        try (Statement sql = connection.createStatement()) {
            // what a rebuild cut short leaves: an invalid copy of an index, named as PostgreSQL names it
            assertThatThrownBy(() -> sql.execute("CREATE UNIQUE INDEX CONCURRENTLY outbox_unsent_pkey_ccnew ON outbox_unsent"
                    + " (aggregate_key)")).as("1,000 events of 500 aggregates share keys").isInstanceOf(SQLException.class);
        }
        backlogCameAndWent();
        assertThat(count(INVALID_INDEXES)).as("the leftover").isOne();

        Awaitility.await("the statistics task rebuilt the queue's indexes").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    statistics.refreshIfStale();
                    return count(INDEX_BYTES) < 1024 * 1024;
                });

        assertThat(count(INVALID_INDEXES)).as("the leftover dropped, no new one").isZero();
        assertThat(count(QUEUE_INDEXES)).as("the queue's indexes")
                .isEqualTo(4);
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET enable_seqscan = off"); // the events still waiting, found through the rebuilt index
            assertThat(count("SELECT count(*) FROM outbox_unsent WHERE status = 'PENDING'")).isEqualTo(1_000);
            sql.execute("RESET enable_seqscan");
        }
    }

    @Test
    void aRebuildCutShortLeavesNoInvalidIndexBehind() throws Exception {
        append(1_000);
        backlogCameAndWent();
        long bytesBefore = count(INDEX_BYTES);
        int task = (int) count("SELECT pg_backend_pid()"); // the statistics task's session: this test's connection
        try (Connection oldSnapshot = Database.connect(); Statement blocker = oldSnapshot.createStatement()) {
            // a transaction older than the rebuild, of another application: REINDEX CONCURRENTLY waits for its snapshot
            oldSnapshot.setAutoCommit(false);
            oldSnapshot.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            blocker.execute("SELECT txid_current()");
            CompletableFuture<Void> look = CompletableFuture.runAsync(statistics::refreshIfStale);
            Awaitility.await("the rebuild waits for the older transaction").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100)).until(() -> Database.count("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE pid = ? AND query LIKE 'REINDEX%' AND wait_event_type = 'Lock'", task) > 0);

            Database.rows("SELECT pg_cancel_backend(?)", task);
            look.get(30, TimeUnit.SECONDS); // the task never fails: the round goes on

            oldSnapshot.rollback();
        }
        assertThat(count(INVALID_INDEXES)).as("the copies the cut-short rebuild made, dropped at once").isZero();
        assertThat(count(QUEUE_INDEXES)).as("the queue's indexes")
                .isEqualTo(4);
        assertThat(count(INDEX_BYTES)).as("not rebuilt").isEqualTo(bytesBefore);
        assertThat(count("SELECT count(*) FROM outbox_unsent WHERE status = 'PENDING'")).as("the events still waiting")
                .isEqualTo(1_000);
    }

    /**
     * A backlog of 400,000 events came and went: its queue rows are gone, the pages of their index entries stay with the
     * indexes.
     */
    private void backlogCameAndWent() throws SQLException {
        try (Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO outbox_unsent (id, aggregate_key, status, next_attempt_at)"
                    + " SELECT 1000000000 + g, g % 1000, 'PENDING', now() + interval '1 day' FROM generate_series(1, 400000) g");
            sql.executeUpdate("DELETE FROM outbox_unsent WHERE id > 1000000000");
            sql.execute("SELECT pg_stat_force_next_flush()");
        }
        assertThat(count(INDEX_BYTES)).as("the indexes a backlog left").isGreaterThan(TableStatistics.REBUILD_MIN_BYTES);
    }

    /** The statistics task, looking as often as it would, vacuumed the queue and left no dead row in it. */
    private void assertVacuumedByTheStatisticsTask() throws SQLException {
        Awaitility.await("the statistics task vacuumed the queue").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    statistics.refreshIfStale();
                    return count("SELECT vacuum_count FROM pg_stat_user_tables WHERE relid = 'outbox_unsent'::regclass") > 0;
                });
        assertThat(count("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = 'outbox_unsent'::regclass"))
                .as("dead queue rows left").isZero();
    }

    /** Appends {@code events} events of 500 aggregates, as the application's append writes them. */
    private void append(int events) throws SQLException {
        try (Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload)"
                    + " SELECT gen_random_uuid(), 'order', 'order-' || (g % 500), 'OrderPlaced', 'orders', '{}'"
                    + " FROM generate_series(1, " + events + ") g");
        }
    }

    /**
     * The oldest {@code events} leave the queue, as published events do, and this session's counts reach
     * PostgreSQL's statistics at its next statement instead of within its idle flush's 10 s.
     */
    private void leave(int events) throws SQLException {
        try (Statement sql = connection.createStatement()) {
            sql.executeUpdate("DELETE FROM outbox_event WHERE id IN (SELECT id FROM outbox_event ORDER BY id LIMIT " + events + ")");
            sql.execute("SELECT pg_stat_force_next_flush()");
        }
    }

    private long count(String sql) throws SQLException {
        try (Statement query = connection.createStatement(); ResultSet row = query.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}

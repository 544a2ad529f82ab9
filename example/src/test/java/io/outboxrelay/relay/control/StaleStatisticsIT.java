package io.outboxrelay.relay.control;

import io.outboxrelay.relay.control.Outcomes.Retry;
import io.outboxrelay.relay.control.Outcomes.Sent;
import io.outboxrelay.relay.control.RelayStore.Failure;
import io.outboxrelay.support.Database;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay's outcomes where PostgreSQL's statistics say the outbox is empty although a backlog waits: what a mass
 * delete (a retention purge, an operator's clean-up) and a vacuum that could not truncate the tables leave behind,
 * until autovacuum analyzes them again. Recording the outcome of a batch must read that batch's rows, not the
 * backlog: with such statistics a mark of 500 events with 100,000 waiting once joined the queue row by row with
 * the batch (21 s, where 3-5 ms is usual), and the relay crawled just when it had most to catch up on.
 * <p>
 * The statements run as {@link RelayStore} binds them, on one connection inside a transaction that is rolled back,
 * so that PostgreSQL's counters of the transaction's reads ({@code pg_stat_get_xact_*}) tell what each outcome
 * read, the trigger's statements included. In a schema of its own: the statistics it provokes are nobody else's.
 * They count reads of tables and indexes only: a plan that compares the batch with itself row by row (500 x 500,
 * hundreds of milliseconds) reads no more and is not caught here; the benchmark's statement log is where that shows.
 */
class StaleStatisticsIT {

    private static final int BACKLOG = 20_000;
    private static final int BATCH = 500;
    /** Rows and index entries a batch's outcome may read: a few per event, never one per waiting event. */
    private static final int READS_PER_EVENT = 8;
    private static final String OWNER = "stale-statistics-it";

    private String schema;
    private Connection connection;
    private RelayStore store;
    private List<Long> leased;

    @BeforeEach
    void backlogBehindStatisticsOfAnEmptyOutbox() throws SQLException {
        schema = OwnSchema.migrated("stale_stats_it_");
        connection = Database.connect();
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET search_path TO " + schema);
            append(sql, BACKLOG);
            sql.executeUpdate("UPDATE outbox_event SET status = 'SENT'");
            sql.executeUpdate("DELETE FROM outbox_event");
            // a relay's statements hold the tables, so a vacuum in production gives truncating them up
            sql.execute("VACUUM (TRUNCATE false, ANALYZE) outbox_event, outbox_unsent");
            append(sql, BACKLOG);
        }
        assertThat(Database.count("SELECT count(*) FROM pg_class WHERE relnamespace = ?::regnamespace"
                        + " AND relname IN ('outbox_event', 'outbox_unsent') AND reltuples = 0 AND relpages > 0", schema))
                .as("both tables believed empty, with pages").isEqualTo(2);

        connection.setAutoCommit(false);
        leased = lease(BATCH);
        store = new RelayStore();
        store.connections = new RelayConnections();
        store.connections.dataSources = new OneConnection(connection);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        if (connection != null) {
            connection.rollback();
            connection.close();
        }
        if (schema != null) {
            OwnSchema.drop(schema);
        }
    }

    @Test
    void markingABatchSentReadsTheBatchNotTheBacklog() throws SQLException {
        long before = reads();

        store.markSent(OWNER, leased.stream().map(id -> new Sent(id, (int) (id % 6), id * 10)).toList(), Instant.now());

        assertThat(reads() - before).as("rows and index entries read").isLessThan(READS_PER_EVENT * BATCH);
        assertThat(count("SELECT count(*) FROM outbox_event_state WHERE status = 'SENT'")).isEqualTo(BATCH);
        assertThat(count("SELECT count(*) FROM outbox_sent WHERE kafka_partition = id % 6 AND kafka_offset = id * 10"))
                .as("each event recorded where it landed, not where another did").isEqualTo(BATCH);
        assertThat(count("SELECT count(*) FROM outbox_unsent")).as("the rest still queued").isEqualTo(BACKLOG - BATCH);
    }

    @Test
    void schedulingRetriesAndHoldingTheirFollowersReadsWhatTheyChange() throws SQLException {
        Instant later = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);
        List<Retry> retries = leased.stream().map(id -> new Retry(id, later, "broker down")).toList();
        long before = reads();

        store.scheduleRetries(OWNER, retries, Instant.now());
        store.holdFollowers(retries, Instant.now());
        long read = reads() - before;

        // the batch holds the first event of each of the 500 aggregates: every other event waits for its retry
        assertThat(count("SELECT count(*) FROM outbox_event WHERE attempts = 1 AND next_attempt_at = '" + later + "'"))
                .as("retried").isEqualTo(BATCH);
        assertThat(count("SELECT count(*) FROM outbox_unsent WHERE next_attempt_at = '" + later + "'"))
                .as("the retried events and every later event of their aggregates, in the queue too").isEqualTo(BACKLOG);
        assertThat(read).as("rows and index entries read, for the %d events it changed", BACKLOG)
                .isLessThan(READS_PER_EVENT * BACKLOG);
    }

    @Test
    void deadLetteringAndGivingBackReadTheBatchNotTheBacklog() throws SQLException {
        List<Long> dead = leased.subList(0, BATCH / 2);
        List<Long> givenBack = leased.subList(BATCH / 2, BATCH);
        long before = reads();

        store.markFailed(OWNER, dead.stream().map(id -> new Failure(id, "DLT", 5, "poison")).toList(), Instant.now());
        store.release(OWNER, givenBack, Instant.now());

        assertThat(reads() - before).as("rows and index entries read").isLessThan(READS_PER_EVENT * BATCH);
        assertThat(count("SELECT count(*) FROM outbox_unsent WHERE status = 'DLT'")).isEqualTo(dead.size());
        assertThat(count("SELECT count(*) FROM outbox_unsent WHERE lease_owner IS NOT NULL")).as("no lease left")
                .isZero();
    }

    /** Appends {@code events} events of 500 aggregates, as the application's append writes them. */
    private static void append(Statement sql, int events) throws SQLException {
        sql.executeUpdate("INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload)"
                + " SELECT gen_random_uuid(), 'order', 'order-' || (g % 500), 'OrderPlaced', 'orders', '{}'"
                + " FROM generate_series(1, " + events + ") g");
    }

    /** Leases the oldest waiting events, as a claim does. */
    private List<Long> lease(int events) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement lease = connection.prepareStatement("""
                UPDATE outbox_unsent SET lease_owner = ?, lease_until = now() + interval '10 minutes', claimed_before = true
                 WHERE id = ANY (ARRAY(SELECT id FROM outbox_unsent ORDER BY id LIMIT ?))
                RETURNING id""")) {
            lease.setString(1, OWNER);
            lease.setInt(2, events);
            try (ResultSet rows = lease.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    /** Rows and index entries of the outbox's two tables this transaction has read so far. */
    private long reads() throws SQLException {
        return count("""
                SELECT sum(pg_stat_get_xact_tuples_returned(c.oid) + pg_stat_get_xact_tuples_fetched(c.oid))
                  FROM pg_class c
                 WHERE c.relnamespace = current_schema()::text::regnamespace
                   AND (c.relname IN ('outbox_event', 'outbox_unsent')
                        OR c.oid IN (SELECT indexrelid FROM pg_index
                                      WHERE indrelid IN ('outbox_event'::regclass, 'outbox_unsent'::regclass)))""");
    }

    private long count(String sql) throws SQLException {
        try (Statement query = connection.createStatement(); ResultSet row = query.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}

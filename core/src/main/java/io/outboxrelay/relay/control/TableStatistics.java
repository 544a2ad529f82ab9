package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Keeps PostgreSQL's statistics of {@code outbox_unsent}, the queue the relay claims from, close to the
 * truth. After a bulk insert the planner believes the queue is as small as at the last ANALYZE until
 * autovacuum comes by (up to a minute or more), and plans the claim for a tiny table: without this
 * task the first 200,000-row drain after a start ran at 2,027 events/s instead of about 6,800. Every
 * {@code outbox.relay.statistics.check-ms} (default 2 s) a task of its own, beside the relay's rounds
 * and never inside one, compares the rows the queue holds now (PostgreSQL's running count) with the count
 * of the last analysis and, once the queue has grown past twice that and by 10,000 rows, analyzes it: a
 * narrow table, so that takes some 100 ms for 200,000 rows. A queue that shrinks is left alone: the
 * planner then overestimates it, which the claim's index-driven plan does not mind, and analyzing at every
 * share of rows changed did so every 3 s of a drain (28 times in three 200,000-row drains). A queue never
 * analyzed is analyzed as soon as it holds a row: on a fresh schema the planner's guesses for it made
 * every claim take 100-500 ms after a burst of 10,000 events, and a steady stream behind the burst
 * waited seconds, until autovacuum's first visit up to a minute later (an ANALYZE of 30 ms ended it).
 * The wide {@code outbox_event} is left to autovacuum: the relay reaches its rows by primary key only,
 * and analyzing it (0.7-1.2 s on 400,000 rows, a dozen times in three such drains) cost the drain more
 * than it gave (medians 7,266 and 8,477 events/s).
 * <p>
 * The same look vacuums the queue once 20,000 of its rows died since the last vacuum (published events leave it) while
 * a backlog of as many still waits, and once 5,000 died while fewer wait.
 * The claim reads the queue's waiting events in id order from its lowest id, so it steps over the index entries of
 * every event published since the last vacuum, and over their rows (it looks for an earlier event of each
 * candidate's aggregate among all rows below its window's end). While a backlog drains: claiming 1,000,000 events
 * 500 at a time on one connection (with the claim of the time, which also probed each candidate's aggregate), a claim
 * took 11.8 ms of the database's time on average, 7.5 ms with a vacuum every 20,000 events (some 75 ms each, 3.7 s
 * for the fifty). In the benchmark's drain the relay's claims went from 14.2 to 11.2 ms in its second round, 28,388
 * to 34,003 events/s.
 * A steady stream of events is what makes the most dead rows, though: at 1,000 events/s the queue holds a few
 * dozen waiting events and up to 60,000 dead ones, as autovacuum visits a database at most once a minute
 * ({@code autovacuum_naptime}), whatever the table's thresholds. A claim of 55 events read 59,536 index entries and
 * 2,556 of the queue's pages then and took 50 ms (2026-12-05, {@code auto_explain}); claims of that stream took 0.4 to
 * 12 ms on average from one half minute to the next, and the events waited for them.
 * {@code SKIP_LOCKED}: when autovacuum is at it already, this look leaves it be.
 * <p>
 * A backlog leaves the queue's indexes large after it drained: their emptied pages are reused, never given back, and
 * each vacuum that removes dead rows reads every page of every index. After a drain of 1,000,000 events the three
 * indexes held 85-94 MiB for an empty queue, and each vacuum of a stream's 5,000 published events read 22,773 pages and
 * took 60-275 ms of the database's time, with two parallel workers started for it (2026-12-07); after a rebuild,
 * 982 pages and 5 ms. So once the queue's indexes hold {@link #REBUILD_MIN_BYTES} or more and far more than its
 * waiting rows need ({@link #needsRebuild}), the same look rebuilds them with {@code REINDEX TABLE CONCURRENTLY},
 * which blocks neither appends nor claims: one server at a time (an advisory lock), at most every
 * {@link #REBUILD_INTERVAL}, within {@link #REBUILD_TIMEOUT}; the invalid copies a rebuild cut short leaves behind
 * (which PostgreSQL would keep up to date with every append) are dropped when it fails, else before the next.
 * <p>
 * Without the privilege to ANALYZE, VACUUM and REINDEX (a table owned by another role) it says so once and leaves the
 * first two to autovacuum, the indexes as large as a backlog left them.
 */
@ApplicationScoped
public class TableStatistics {

    private static final Logger LOG = Logger.getLogger(TableStatistics.class.getName());
    private static final long MIN_GROWTH = 10_000;
    private static final double GROWTH_FACTOR = 2.0;
    static final long VACUUM_AFTER_DEAD = 20_000;
    static final long VACUUM_AFTER_DEAD_WITHOUT_BACKLOG = 5_000;
    private static final long MIB = 1024 * 1024;
    static final long REBUILD_MIN_BYTES = 16 * MIB;
    /** Index bytes per waiting row beyond which the indexes count as far larger than the queue needs. */
    static final long REBUILD_BYTES_PER_ROW = 4_096;
    private static final Duration REBUILD_INTERVAL = Duration.ofMinutes(10);
    private static final Duration REBUILD_TIMEOUT = Duration.ofSeconds(60);
    /** Names the advisory lock that keeps the relays of several servers from rebuilding the queue's indexes at once. */
    private static final String REBUILD_LOCK = "hashtext('outbox_relay: rebuild outbox_unsent indexes')";
    /** The bytes the queue's indexes hold, as an expression. */
    private static final String INDEX_BYTES = """
            (SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) FROM pg_index i
              WHERE i.indrelid = 'outbox_unsent'::regclass)""";

    @Inject
    OutboxDataSources dataSources;

    @Inject
    @ConfigProperty(name = "outbox.relay.statistics.check-ms", defaultValue = "2000")
    long checkMs;

    private volatile boolean allowed = true;
    private volatile boolean rebuildAllowed = true;
    private volatile long nextRebuildNanos = System.nanoTime();

    /** How often {@link #refreshIfStale} should run. */
    public Duration checkInterval() {
        return Duration.ofMillis(checkMs);
    }

    /**
     * One look at the table's statistics: an ANALYZE when they are stale, a VACUUM when rows died, a rebuild of its
     * indexes when a drained backlog left them large; never fails.
     */
    public void refreshIfStale() {
        if (!allowed) {
            return;
        }
        try (Connection connection = dataSources.nonTransactional().getConnection(); Statement statement = connection.createStatement()) {
            long live;
            double analyzed;
            long dead;
            long indexBytes;
            try (ResultSet stats = statement.executeQuery("""
                    SELECT s.n_live_tup, c.reltuples, pg_has_role(c.relowner, 'USAGE'), s.n_dead_tup, """ + INDEX_BYTES + """

                      FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
                     WHERE s.relname = 'outbox_unsent' AND s.schemaname = current_schema()""")) {
                if (!stats.next()) {
                    return;
                }
                live = stats.getLong(1);
                analyzed = stats.getDouble(2);
                dead = stats.getLong(4);
                indexBytes = stats.getLong(5);
                if (!stats.getBoolean(3)) { // PostgreSQL would skip the ANALYZE with a warning each time
                    allowed = false;
                    LOG.warning("The relay may not ANALYZE or VACUUM outbox_unsent (its role does not own the table);"
                            + " after bulk inserts it relies on autovacuum's analysis, which can lag a minute behind, and"
                            + " claims step over the published events' index entries until autovacuum comes by");
                    return;
                }
            }
            if (needsVacuum(live, dead)) {
                long started = System.nanoTime();
                // the vacuum may give the queue's empty pages at its end back, as by default: left, they made claims
                // read them (kept beside a stream of events by TRUNCATE false, a claim took 1.1-2.2 ms of the
                // database's time on average instead of 0.5-0.7)
                statement.execute("VACUUM (SKIP_LOCKED) outbox_unsent");
                LOG.fine(() -> "vacuumed outbox_unsent (" + dead + " rows dead) in " + (System.nanoTime() - started) / 1_000_000
                        + " ms");
            }
            if (isStale(live, analyzed)) {
                long started = System.nanoTime();
                statement.execute("ANALYZE outbox_unsent");
                LOG.fine(() -> "analyzed outbox_unsent (" + live + " rows queued, " + (analyzed < 0 ? "never analyzed"
                        : (long) analyzed + " at the last analysis") + ") in " + (System.nanoTime() - started) / 1_000_000
                        + " ms");
            }
            if (rebuildAllowed && needsRebuild(live, indexBytes) && System.nanoTime() - nextRebuildNanos >= 0) {
                nextRebuildNanos = System.nanoTime() + REBUILD_INTERVAL.toNanos();
                rebuildIndexes(statement, live, indexBytes);
            }
        } catch (SQLException databaseAway) {
            // the round itself will meet it and say so
        }
    }

    /**
     * Rebuilds the queue's indexes unless another server is at it: first drops what an earlier rebuild cut short left
     * (an invalid copy named {@code <index>_ccnew} or {@code _ccold}, which PostgreSQL would keep up to date with every
     * append and never use), then {@code REINDEX TABLE CONCURRENTLY}, bounded by {@link #REBUILD_TIMEOUT}; drops what
     * this one leaves if it fails.
     */
    private void rebuildIndexes(Statement statement, long live, long indexBytes) throws SQLException {
        try (ResultSet lock = statement.executeQuery("SELECT pg_try_advisory_lock(" + REBUILD_LOCK + ")")) {
            if (!lock.next() || !lock.getBoolean(1)) {
                return;
            }
        }
        long started = System.nanoTime();
        try {
            statement.execute("SET statement_timeout = " + REBUILD_TIMEOUT.toMillis());
            dropLeftovers(statement);
            statement.execute("REINDEX TABLE CONCURRENTLY outbox_unsent");
            long millis = (System.nanoTime() - started) / 1_000_000;
            long now = indexBytesNow(statement);
            LOG.info(() -> "rebuilt the indexes of outbox_unsent (" + live + " rows queued, " + indexBytes / MIB
                    + " MiB of indexes, now " + now / MIB + " MiB) in " + millis + " ms");
        } catch (SQLException failed) {
            if ("42601".equals(failed.getSQLState()) || "0A000".equals(failed.getSQLState())) {
                rebuildAllowed = false; // a PostgreSQL before 12, without REINDEX CONCURRENTLY
            }
            try {
                dropLeftovers(statement); // what the rebuild cut short, not left to slow every append until the next
            } catch (SQLException notNow) {
                failed.addSuppressed(notNow);
            }
            LOG.info(() -> "could not rebuild the indexes of outbox_unsent (" + failed.getMessage() + "); vacuums of the queue"
                    + " read all " + indexBytes / MIB + " MiB of them until a rebuild passes"
                    + (rebuildAllowed ? ", tried again in " + REBUILD_INTERVAL.toMinutes() + " minutes" : ""));
        } finally {
            statement.execute("RESET statement_timeout");
            statement.execute("SELECT pg_advisory_unlock(" + REBUILD_LOCK + ")");
        }
    }

    /** Drops the invalid copies of the queue's indexes that a rebuild cut short left behind. */
    private static void dropLeftovers(Statement statement) throws SQLException {
        for (String leftover : leftovers(statement)) {
            statement.execute("DROP INDEX CONCURRENTLY IF EXISTS " + leftover);
        }
    }

    /** The invalid copies of the queue's indexes that a rebuild cut short left behind, their names quoted. */
    private static List<String> leftovers(Statement statement) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet invalid = statement.executeQuery("""
                SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname)
                  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE i.indrelid = 'outbox_unsent'::regclass AND NOT i.indisvalid AND c.relname ~ '_cc(new|old)[0-9]*$'""")) {
            while (invalid.next()) {
                names.add(invalid.getString(1));
            }
        }
        return names;
    }

    private static long indexBytesNow(Statement statement) {
        try (ResultSet size = statement.executeQuery("SELECT " + INDEX_BYTES)) {
            return size.next() ? size.getLong(1) : -1;
        } catch (SQLException failed) {
            return -1;
        }
    }

    /**
     * Whether the queue's statistics are stale: never analyzed ({@code analyzed} negative, as PostgreSQL's
     * {@code reltuples} says) while it holds rows, or grown past twice its analyzed size and by 10,000 rows.
     */
    static boolean isStale(long live, double analyzed) {
        if (analyzed < 0) {
            return live > 0;
        }
        return live > analyzed + MIN_GROWTH && live > GROWTH_FACTOR * analyzed;
    }

    /**
     * Whether to vacuum the queue: 20,000 of its rows died since the last vacuum while as many still wait (a backlog
     * drains; a vacuum reads its waiting rows' pages too), or 5,000 died while fewer wait (a stream of events, or the
     * end of a backlog: a vacuum of a small queue is quick, and each of the many small claims would step over every
     * dead row). A vacuum that finds the queue nearly empty tells the planner so until the next analysis, as
     * autovacuum's does; the claim is shaped for any belief about the queue's size (see {@link RelayStore}), and a
     * burst is analyzed as it grows ({@link #isStale}).
     */
    static boolean needsVacuum(long live, long dead) {
        return dead >= (live >= VACUUM_AFTER_DEAD ? VACUUM_AFTER_DEAD : VACUUM_AFTER_DEAD_WITHOUT_BACKLOG);
    }

    /**
     * Whether to rebuild the queue's indexes: they hold {@link #REBUILD_MIN_BYTES} or more, and over
     * {@link #REBUILD_BYTES_PER_ROW} per waiting row (over 40 times the 89 bytes a row's entries took in the three
     * indexes after a backlog of 1,000,000): what a drained backlog leaves, never a backlog still waiting.
     */
    static boolean needsRebuild(long live, long indexBytes) {
        return indexBytes >= REBUILD_MIN_BYTES && indexBytes > Math.max(0, live) * REBUILD_BYTES_PER_ROW;
    }
}

package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds the relays of the Outbox Relay servers on the benchmark's database back, as a second server configured with
 * the same instance id would: each relay holds its instance id as a PostgreSQL advisory lock on a session of its own;
 * the hold ends that session and takes the lock, so the relay, at its next round, finds its session gone and the lock
 * taken, and claims nothing until the lock is free again (the product's {@code InstanceClaim}, which asks again after
 * at most a second). The hold is in place once as many sessions as there are locks have asked for one since and been
 * refused, so no round that began before it is still claiming.
 * Releasing lets go of the locks and wakes the relays with the {@code NOTIFY} an append sends.
 */
final class RelayHold implements Backlog.Hold, AutoCloseable {

    /** The product's lock space for instance ids ("OREL"), the first key of each relay's lock. */
    private static final long LOCK_SPACE = 0x4f52_454cL;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Connection holder;
    private boolean released;

    private RelayHold(Connection holder) {
        this.holder = holder;
    }

    /** Takes every relay's instance lock; fails when no server relays on this database. */
    static RelayHold take(Env env) throws SQLException {
        Connection holder = env.connect();
        try {
            holder.setAutoCommit(true);
            List<Long> keys = new ArrayList<>();
            for (int attempt = 1; keys.isEmpty() || !heldByMe(holder, keys); attempt++) {
                if (attempt > 10) {
                    throw new IllegalStateException("the relays took their instance locks back ten times; not held");
                }
                keys = takeOver(holder);
            }
            OffsetDateTime taken = now(holder);
            int locks = keys.size();
            Env.await("every held relay to find its instance lock taken", PATIENCE, Duration.ofMillis(50),
                    () -> refusedSince(holder, taken) >= locks);
            return new RelayHold(holder);
        } catch (SQLException | RuntimeException failed) {
            holder.close();
            throw failed;
        }
    }

    /** Ends the sessions that hold a relay's instance lock, takes each lock as they go; returns the locks' second keys. */
    private static List<Long> takeOver(Connection holder) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (PreparedStatement holders = holder.prepareStatement("""
                SELECT pid, objid::bigint FROM pg_locks
                 WHERE locktype = 'advisory' AND classid::bigint = ? AND objsubid = 2 AND granted AND pid <> pg_backend_pid()""")) {
            holders.setLong(1, LOCK_SPACE);
            try (ResultSet held = holders.executeQuery()) {
                while (held.next()) {
                    int pid = held.getInt(1);
                    long key = held.getLong(2);
                    keys.add(key > Integer.MAX_VALUE ? key - (1L << 32) : key); // an oid holds the int's bits
                    try (PreparedStatement end = holder.prepareStatement("SELECT pg_terminate_backend(?, 10000)")) {
                        end.setInt(1, pid); // waits up to 10 s for the session to end
                        end.execute();
                    }
                }
            }
        }
        if (keys.isEmpty()) {
            throw new IllegalStateException("no relay holds an instance lock on this database: is a server relaying?");
        }
        for (long key : keys) {
            try (PreparedStatement lock = holder.prepareStatement("SELECT pg_try_advisory_lock(?, ?)")) {
                lock.setInt(1, (int) LOCK_SPACE);
                lock.setInt(2, (int) key);
                lock.execute();
            }
        }
        return keys;
    }

    private static boolean heldByMe(Connection holder, List<Long> keys) throws SQLException {
        try (PreparedStatement mine = holder.prepareStatement("""
                SELECT count(*) FROM pg_locks
                 WHERE locktype = 'advisory' AND classid::bigint = ? AND objsubid = 2 AND granted AND pid = pg_backend_pid()""")) {
            mine.setLong(1, LOCK_SPACE);
            try (ResultSet count = mine.executeQuery()) {
                count.next();
                return count.getLong(1) == keys.size();
            }
        }
    }

    /** How many other sessions asked for an instance lock after {@code since} (and, the locks being mine, were refused). */
    private static long refusedSince(Connection holder, OffsetDateTime since) throws SQLException {
        try (PreparedStatement asked = holder.prepareStatement("""
                SELECT count(*) FROM pg_stat_activity
                 WHERE pid <> pg_backend_pid() AND query LIKE 'SELECT pg_try_advisory_lock(%' AND query_start > ?
                   AND state <> 'active'""")) {
            asked.setObject(1, since);
            try (ResultSet count = asked.executeQuery()) {
                count.next();
                return count.getLong(1);
            }
        }
    }

    private static OffsetDateTime now(Connection holder) throws SQLException {
        try (Statement clock = holder.createStatement(); ResultSet now = clock.executeQuery("SELECT clock_timestamp()")) {
            now.next();
            return now.getObject(1, OffsetDateTime.class);
        }
    }

    @Override
    public void release() throws SQLException {
        if (released) {
            return;
        }
        released = true;
        try (Statement free = holder.createStatement()) {
            free.execute("SELECT pg_advisory_unlock_all()");
            free.execute("NOTIFY outbox_relay");
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            release();
        } finally {
            holder.close();
        }
    }
}

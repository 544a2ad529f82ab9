package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Inserts one row per transaction, each on a connection of its own while it runs: the steady writer of
 * the contenders whose outbox is a plain table. The statement takes the key and the JSON payload;
 * something may follow each commit (Outbox Relay's {@code NOTIFY}).
 * <p>
 * The connections are kept for the writer's life and shared by whichever threads write, as a
 * pool would: until 2026-12-07 each writer thread had one of its own, and as every steady step
 * writes from new threads, each step began by opening {@link RateWriter#THREADS} connections to
 * PostgreSQL (a process and a password exchange each), which delayed its first 50-130 events by up
 * to 20-75 ms, the largest burst of the step's slowest percent.
 */
final class RowWriter implements AutoCloseable {

    private final Env env;
    private final String insert;
    private final AfterCommit afterCommit;
    private final Queue<Statements> idle = new ConcurrentLinkedQueue<>();
    private final Queue<Connection> connections = new ConcurrentLinkedQueue<>();

    /** A connection and its prepared insert. */
    private record Statements(Connection connection, PreparedStatement insert) {
    }

    /** What follows each commit of a writer thread, given that thread's connection; closed with the writer. */
    interface AfterCommit extends AutoCloseable {
        void committed(Connection writers) throws SQLException;

        @Override
        default void close() throws Exception {
        }
    }

    RowWriter(Env env, String insert) {
        this(env, insert, null);
    }

    /** {@code afterCommit} (may be null) follows each commit. */
    RowWriter(Env env, String insert, AfterCommit afterCommit) {
        this.env = env;
        this.insert = insert;
        this.afterCommit = afterCommit;
    }

    /** Returns once the row is committed. */
    void insert(String key, String payload) throws SQLException {
        Statements mine = idle.poll();
        if (mine == null) {
            Connection connection = env.connect();
            connections.add(connection);
            connection.setAutoCommit(true);
            mine = new Statements(connection, connection.prepareStatement(insert));
        }
        mine.insert().setString(1, key);
        mine.insert().setString(2, payload);
        mine.insert().executeUpdate();
        if (afterCommit != null) {
            afterCommit.committed(mine.connection());
        }
        idle.add(mine); // a connection whose write failed is left out: a later write opens another
    }

    /**
     * The steady writer of a contender whose events are rows of a plain table: one insert per event
     * into {@code topic}'s table; closing closes the connections, then {@code relay} (the contender's
     * reader of that table).
     */
    Steady steady(String topic, AutoCloseable relay) {
        return steady(topic, "one INSERT per event, each its own transaction (" + RateWriter.THREADS + " connections)", relay);
    }

    /** {@link #steady(String, AutoCloseable)}, with what the writer does said otherwise. */
    Steady steady(String topic, String writes, AutoCloseable relay) {
        RowWriter rows = this;
        return Steady.of(topic, writes,
                sequence -> rows.insert(Shape.key(sequence), Shape.payload(sequence, System.currentTimeMillis())), () -> {
                    rows.close();
                    relay.close();
                });
    }

    @Override
    public void close() throws Exception {
        for (Connection connection : connections) {
            connection.close();
        }
        if (afterCommit != null) {
            afterCommit.close();
        }
    }
}

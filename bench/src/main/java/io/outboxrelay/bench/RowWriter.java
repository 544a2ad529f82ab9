package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Inserts one row per transaction through one connection per writer thread: the steady writer of
 * the contenders whose outbox is a plain table. The statement takes the key and the JSON payload;
 * a statement to run before each commit (Outbox Relay's {@code NOTIFY}) can follow it in the same
 * transaction.
 */
final class RowWriter implements AutoCloseable {

    private final Env env;
    private final String insert;
    private final String beforeCommit;
    private final Queue<Connection> connections = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<Statements> statements = new ThreadLocal<>();

    /** One writer thread's connection and statements. */
    private record Statements(Connection connection, PreparedStatement insert, Statement beforeCommit) {
    }

    RowWriter(Env env, String insert) {
        this(env, insert, null);
    }

    RowWriter(Env env, String insert, String beforeCommit) {
        this.env = env;
        this.insert = insert;
        this.beforeCommit = beforeCommit;
    }

    /** Returns once the row is committed. */
    void insert(String key, String payload) throws SQLException {
        Statements mine = statements.get();
        if (mine == null) {
            Connection connection = env.connect();
            connections.add(connection);
            connection.setAutoCommit(beforeCommit == null);
            mine = new Statements(connection, connection.prepareStatement(insert), connection.createStatement());
            statements.set(mine);
        }
        mine.insert().setString(1, key);
        mine.insert().setString(2, payload);
        if (beforeCommit == null) {
            mine.insert().executeUpdate();
            return;
        }
        try {
            mine.insert().executeUpdate();
            mine.beforeCommit().execute(beforeCommit);
            mine.connection().commit();
        } catch (SQLException failed) {
            mine.connection().rollback(); // so that the connection's next event starts afresh
            throw failed;
        }
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
    public void close() throws SQLException {
        for (Connection connection : connections) {
            connection.close();
        }
    }
}

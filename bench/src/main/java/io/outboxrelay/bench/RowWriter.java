package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Inserts one row per transaction (autocommit) through one connection per writer thread: the
 * steady writer of the contenders whose outbox is a plain table. The statement takes the key and
 * the JSON payload.
 */
final class RowWriter implements AutoCloseable {

    private final Env env;
    private final String insert;
    private final Queue<Connection> connections = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<PreparedStatement> statement = new ThreadLocal<>();

    RowWriter(Env env, String insert) {
        this.env = env;
        this.insert = insert;
    }

    /** Returns once the row is committed. */
    void insert(String key, String payload) throws SQLException {
        PreparedStatement mine = statement.get();
        if (mine == null) {
            Connection connection = env.connect();
            connections.add(connection);
            mine = connection.prepareStatement(insert);
            statement.set(mine);
        }
        mine.setString(1, key);
        mine.setString(2, payload);
        mine.executeUpdate();
    }

    /**
     * The steady writer of a contender whose events are rows of a plain table: one insert per event
     * into {@code topic}'s table; closing closes the connections, then {@code relay} (the contender's
     * reader of that table).
     */
    Steady steady(String topic, AutoCloseable relay) {
        RowWriter rows = this;
        return Steady.of(topic, "one INSERT per event, each its own transaction (" + RateWriter.THREADS + " connections)",
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

package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the product's append does after a commit, for the harness's plain-row writer: {@code NOTIFY
 * outbox_relay} on a connection of its own, one at a time, the commits made while one is on its way
 * sharing the next. The writer's threads never wait for it. {@link #EACH_COMMIT} is what the append did
 * before (one notification per commit, sent by the committing thread), for comparison.
 */
final class CommitNotifier implements RowWriter.AfterCommit {

    /** One {@code NOTIFY} after every commit, on the writer's own connection, which waits for it. */
    static final RowWriter.AfterCommit EACH_COMMIT = writers -> {
        try (Statement notify = writers.createStatement()) {
            notify.execute("NOTIFY outbox_relay");
        }
    };

    private final Connection connection;
    private final Thread sender;
    private boolean raised;
    private boolean closed;

    CommitNotifier(Env env) throws SQLException {
        connection = env.connect();
        connection.setAutoCommit(true);
        sender = new Thread(this::sendWhileOpen, "bench-commit-notifier");
        sender.setDaemon(true);
        sender.start();
    }

    /** A transaction that wrote events has committed; the writer's connection is not needed. */
    @Override
    public synchronized void committed(Connection writers) {
        raised = true;
        notifyAll();
    }

    private void sendWhileOpen() {
        try (Statement notify = connection.createStatement()) {
            while (awaitRaise()) {
                notify.execute("NOTIFY outbox_relay");
            }
        } catch (SQLException | InterruptedException stopped) {
            // closed, or the database went away: the relay's poll finds the rows, as in the product
        }
    }

    private synchronized boolean awaitRaise() throws InterruptedException {
        while (!raised && !closed) {
            wait();
        }
        raised = false;
        return !closed;
    }

    @Override
    public void close() throws Exception {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        sender.join(5_000);
        connection.close();
    }
}

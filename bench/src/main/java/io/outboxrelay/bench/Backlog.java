package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The backlog every database contender drains, built and timed alike: rows 1..n committed in
 * {@value #PER_TRANSACTION}-row transactions, one after the other on one connection, while the
 * contender already works; the time runs from just before the first insert until all n records
 * are on the topic. One huge transaction would leave part of a contender's work (Debezium's
 * decoding of it, say) outside the timed span.
 */
final class Backlog {

    static final int PER_TRANSACTION = 1_000;
    static final Duration PATIENCE = Duration.ofMinutes(30);
    static final String DESCRIPTION = "committed in " + PER_TRANSACTION + "-row transactions on one connection while the"
            + " contender runs, timed from the first insert until the last record is acknowledged on the topic";

    /**
     * One drain's time: from just before the first insert until the last record was acknowledged on the
     * topic ({@code nanos}, the figure), and until the last transaction had committed
     * ({@code committedNanos}). When the two are close, the contender kept up with the writer and the
     * drain measured how fast its rows could be committed on the shared cores, not how fast it sends them.
     */
    record Drained(long nanos, long committedNanos) {
    }

    /** Commits rows {@code from}..{@code to} (inclusive) in one transaction. */
    interface Chunk {
        void commit(long from, long to) throws Exception;
    }

    private Backlog() {
    }

    /**
     * Rows inserted by SQL: {@code insert} takes a chunk's first and last number as its two
     * parameters (for {@code generate_series(?, ?)}); {@code notify} adds {@code NOTIFY outbox_relay}
     * to each transaction, as Outbox Relay's own append sends it on commit.
     */
    static Drained drainRows(Env env, int n, String insert, boolean notify, Callable<Boolean> arrived) throws Exception {
        try (Connection connection = env.connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement rows = connection.prepareStatement(insert); Statement wake = connection.createStatement()) {
                return drain(n, (from, to) -> {
                    rows.setLong(1, from);
                    rows.setLong(2, to);
                    rows.executeUpdate();
                    if (notify) {
                        wake.execute("NOTIFY outbox_relay"); // PostgreSQL delivers it when the transaction commits
                    }
                    connection.commit();
                }, arrived);
            }
        }
    }

    /**
     * Starts the clock, commits the chunks in the background and waits until {@code arrived} holds;
     * returns how long that took, and how long the commits took. A failed commit fails the drain at once.
     */
    static Drained drain(int n, Chunk chunk, Callable<Boolean> arrived) throws Exception {
        ExecutorService committing = Executors.newSingleThreadExecutor();
        try {
            long start = System.nanoTime();
            Future<Long> committed = committing.submit(() -> {
                for (long from = 1; from <= n; from += PER_TRANSACTION) {
                    chunk.commit(from, Math.min(n, from + PER_TRANSACTION - 1));
                }
                return System.nanoTime() - start;
            });
            Env.await(n + " records to arrive", PATIENCE, Duration.ofMillis(20), () -> {
                if (committed.isDone()) {
                    committed.get(); // throws when committing failed
                }
                return arrived.call();
            });
            long end = System.nanoTime();
            return new Drained(end - start, committed.get());
        } finally {
            committing.shutdownNow();
            committing.awaitTermination(1, TimeUnit.MINUTES);
        }
    }
}

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
 * {@value #PER_TRANSACTION}-row transactions, one after the other on one connection, and timed by one
 * of two {@link Timing}s. One huge transaction would leave part of a contender's work (Debezium's
 * decoding of it, say) outside the timed span.
 */
final class Backlog {

    static final int PER_TRANSACTION = 1_000;
    static final Duration PATIENCE = Duration.ofMinutes(30);

    /** Which span a drain's clock covers. */
    enum Timing {
        /**
         * The contender is held back while the backlog is committed, and timed from its release until the last
         * record is acknowledged: how fast it catches up on events that are waiting (after an outage of Kafka or
         * of the publisher, say), on two cores that nothing else needs meanwhile.
         */
        AFTER_WRITTEN("committed in " + PER_TRANSACTION + "-row transactions on one connection while the contender is"
                + " held back, timed from its release until the last record is acknowledged on the topic"),
        /**
         * The contender publishes while the backlog is committed, timed from the first insert: a contender that
         * keeps up with the writer measures how fast its rows are committed beside it, i.e. its insert's cost.
         */
        WHILE_WRITTEN("committed in " + PER_TRANSACTION + "-row transactions on one connection while the contender"
                + " runs, timed from the first insert until the last record is acknowledged on the topic");

        final String description;

        Timing(String description) {
            this.description = description;
        }

        static Timing of(String option) {
            return valueOf(option.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
        }

        String option() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * One drain's time ({@code nanos}, the figure) by its {@code timing}, and how long its rows took to commit
     * ({@code committedNanos}): with {@link Timing#WHILE_WRITTEN} from the first insert until the last commit (when
     * the two are close, the contender kept up with the writer and the drain measured how fast its rows could be
     * committed on the shared cores, not how fast it sends them), with {@link Timing#AFTER_WRITTEN} before the clock
     * started. {@code cpu}: the machine's CPU per event over the timed span, by process (null without {@code /proc}).
     */
    record Drained(long nanos, long committedNanos, Timing timing, ProcessCpu.PerOrder cpu) {
    }

    /** What keeps a contender from publishing until the drain's clock starts (with {@link Timing#AFTER_WRITTEN}). */
    interface Hold {
        /** Lets the contender publish; returns at once. */
        void release() throws Exception;
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
    static Drained drainRows(Env env, int n, Timing timing, String insert, boolean notify, Hold hold,
                             Callable<Boolean> arrived) throws Exception {
        try (Connection connection = env.connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement rows = connection.prepareStatement(insert); Statement wake = connection.createStatement()) {
                return drain(env, n, timing, (from, to) -> {
                    rows.setLong(1, from);
                    rows.setLong(2, to);
                    rows.executeUpdate();
                    if (notify) {
                        wake.execute("NOTIFY outbox_relay"); // PostgreSQL delivers it when the transaction commits
                    }
                    connection.commit();
                }, hold, arrived);
            }
        }
    }

    /**
     * Commits the chunks and releases {@code hold}, in the order and with the clock that {@code timing} says, and waits
     * until {@code arrived} holds. A failed commit fails the drain at once.
     */
    static Drained drain(Env env, int n, Timing timing, Chunk chunk, Hold hold, Callable<Boolean> arrived) throws Exception {
        if (timing == Timing.AFTER_WRITTEN) {
            long writing = System.nanoTime();
            commitAll(n, chunk);
            long committed = System.nanoTime() - writing;
            ProcessCpu.Sample before = cpuSample(env);
            long start = System.nanoTime();
            hold.release();
            Env.await(n + " records to arrive", PATIENCE, Duration.ofMillis(20), arrived);
            long nanos = System.nanoTime() - start;
            return new Drained(nanos, committed, timing, cpuPerEvent(env, before, n));
        }
        hold.release();
        ExecutorService committing = Executors.newSingleThreadExecutor();
        try {
            ProcessCpu.Sample before = cpuSample(env);
            long start = System.nanoTime();
            Future<Long> committed = committing.submit(() -> {
                commitAll(n, chunk);
                return System.nanoTime() - start;
            });
            Env.await(n + " records to arrive", PATIENCE, Duration.ofMillis(20), () -> {
                if (committed.isDone()) {
                    committed.get(); // throws when committing failed
                }
                return arrived.call();
            });
            long end = System.nanoTime();
            return new Drained(end - start, committed.get(), timing, cpuPerEvent(env, before, n));
        } finally {
            committing.shutdownNow();
            committing.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /** The processes' CPU at the start of a timed span; null where there is no {@code /proc} to read. */
    static ProcessCpu.Sample cpuSample(Env env) {
        return ProcessCpu.available() ? ProcessCpu.sample(env.serverPid()) : null;
    }

    /** The CPU each process spent per event since {@code before}; null where there is no {@code /proc}. */
    static ProcessCpu.PerOrder cpuPerEvent(Env env, ProcessCpu.Sample before, int n) {
        return before == null ? null : ProcessCpu.perOrder(before, ProcessCpu.sample(env.serverPid()), n);
    }

    private static void commitAll(int n, Chunk chunk) throws Exception {
        for (long from = 1; from <= n; from += PER_TRANSACTION) {
            chunk.commit(from, Math.min(n, from + PER_TRANSACTION - 1));
        }
    }
}

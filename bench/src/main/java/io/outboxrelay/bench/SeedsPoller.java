package io.outboxrelay.bench;

import org.apache.kafka.clients.producer.KafkaProducer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The poller the seeds describe, written as they describe it: every interval, select the top 100
 * PENDING rows by created_at; for each, {@code send(...).get()}, then update that row to SENT.
 * Drain: the poller runs while the backlog is committed, or, held back, starts with the clock.
 */
final class SeedsPoller implements Contender, Steady.Capable {

    private static final int BATCH = 100;
    private static final long INTERVAL_MS = 100;

    @Override
    public String name() {
        return "seeds-poller";
    }

    @Override
    public String settings() {
        return "top " + BATCH + " PENDING by created_at every " + INTERVAL_MS + " ms; send().get() then UPDATE per row;"
                + " index on (status, created_at)";
    }

    @Override
    public Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception {
        String topic = env.freshTopic(name());
        createTable(env);
        // held back: the poller is started when the clock starts
        java.util.concurrent.atomic.AtomicReference<Poller> poller = new java.util.concurrent.atomic.AtomicReference<>();
        try {
            return Backlog.drainRows(env, n, timing, "INSERT INTO bench_poller_event (aggregate_id, payload) SELECT 'agg-' || (i % "
                    + Shape.aggregates() + "), " + Shape.payloadSql("i") + " FROM generate_series(?, ?) AS i", false,
                    () -> poller.set(new Poller(env, topic, n)), () -> {
                        if (poller.get().drained.isCompletedExceptionally()) {
                            poller.get().drained.get(); // throws why the poll failed
                        }
                        return poller.get().drained.isDone();
                    });
        } finally {
            if (poller.get() != null) {
                poller.get().close();
            }
        }
    }

    @Override
    public Steady steady(Env env) throws Exception {
        String topic = env.freshTopic(name());
        createTable(env);
        Poller poller = new Poller(env, topic, Long.MAX_VALUE);
        RowWriter rows = new RowWriter(env, "INSERT INTO bench_poller_event (aggregate_id, payload) VALUES (?, ?::jsonb)");
        return rows.steady(topic, () -> {
            poller.close();
            env.sql("TRUNCATE bench_poller_event");
        });
    }

    private static void createTable(Env env) throws Exception {
        env.sql("""
                CREATE TABLE IF NOT EXISTS bench_poller_event (
                    id bigserial PRIMARY KEY, aggregate_id text NOT NULL, payload jsonb NOT NULL,
                    status text NOT NULL DEFAULT 'PENDING', created_at timestamptz NOT NULL DEFAULT clock_timestamp());
                CREATE INDEX IF NOT EXISTS bench_poller_event_pending ON bench_poller_event (status, created_at);
                TRUNCATE bench_poller_event""");
    }

    /** The poll loop on its own connection and producer, until closed; {@code drained} completes after n rows. */
    private static final class Poller implements AutoCloseable {
        final CompletableFuture<Void> drained = new CompletableFuture<>();
        private final KafkaProducer<String, String> producer;
        private final Connection connection;
        private final ScheduledExecutorService interval = Executors.newSingleThreadScheduledExecutor();

        Poller(Env env, String topic, long n) throws Exception {
            producer = env.producer();
            connection = env.connect();
            PreparedStatement select = connection.prepareStatement(
                    "SELECT id, aggregate_id, payload::text FROM bench_poller_event WHERE status = 'PENDING'"
                            + " ORDER BY created_at LIMIT " + BATCH);
            PreparedStatement markSent = connection.prepareStatement("UPDATE bench_poller_event SET status = 'SENT' WHERE id = ?");
            AtomicInteger sent = new AtomicInteger();
            interval.scheduleWithFixedDelay(() -> {
                try {
                    poll(topic, producer, select, markSent, sent);
                    if (sent.get() >= n) {
                        drained.complete(null);
                    }
                } catch (Exception e) {
                    drained.completeExceptionally(e);
                }
            }, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() throws Exception {
            interval.shutdownNow();
            interval.awaitTermination(1, TimeUnit.MINUTES);
            producer.close();
            connection.close();
        }
    }

    /** One interval's work: the top rows, each sent and waited for, then marked SENT. */
    private static void poll(String topic, KafkaProducer<String, String> producer, PreparedStatement select,
                             PreparedStatement markSent, AtomicInteger sent) throws Exception {
        List<Object[]> rows = new ArrayList<>();
        try (ResultSet result = select.executeQuery()) {
            while (result.next()) {
                rows.add(new Object[] {result.getLong(1), result.getString(2), result.getString(3)});
            }
        }
        for (Object[] row : rows) {
            producer.send(Shape.record(topic, (String) row[1], (String) row[2])).get();
            markSent.setLong(1, (Long) row[0]);
            markSent.executeUpdate();
            sent.incrementAndGet();
        }
    }
}

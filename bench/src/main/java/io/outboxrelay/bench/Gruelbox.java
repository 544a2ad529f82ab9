package io.outboxrelay.bench;

import com.gruelbox.transactionoutbox.Dialect;
import com.gruelbox.transactionoutbox.Instantiator;
import com.gruelbox.transactionoutbox.Persistor;
import com.gruelbox.transactionoutbox.Submitter;
import com.gruelbox.transactionoutbox.ThreadLocalContextTransactionManager;
import com.gruelbox.transactionoutbox.TransactionManager;
import com.gruelbox.transactionoutbox.TransactionOutbox;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * gruelbox transaction-outbox on the same PostgreSQL: each entry is an invocation of
 * {@link KafkaSender#send} that produces (with Outbox Relay's headers) and waits for the ack.
 * Processing is on, so each commit submits its entries at once (the library's after-commit path)
 * to a pool of threads that process each in its own transaction (lock, invoke, delete), as the
 * library does. Drain: the backlog's entries are scheduled 1,000 per transaction, like the other
 * contenders' rows, while the outbox is also flushed whenever fewer than a batch wait for a thread;
 * held back, entries committed while processing is off wait for that flush (due two seconds after they
 * were scheduled, the library's attempt frequency).
 * Steady: a background flush every second picks up anything missed.
 */
final class Gruelbox implements Contender, Steady.Capable {

    private static final int THREADS = 16;
    private static final int FLUSH_BATCH = 1_000;
    private static final Duration ATTEMPT_FREQUENCY = Duration.ofSeconds(2);

    /** The invoked class: must be public with a public no-argument constructor for the proxy. */
    public static class KafkaSender {
        static volatile KafkaProducer<String, String> producer;

        public void send(String topic, String key, String payload) throws Exception {
            producer.send(Shape.record(topic, key, payload)).get();
        }
    }

    @Override
    public String name() {
        return "gruelbox";
    }

    @Override
    public String settings() {
        return "transactionoutbox-core 4.2.268, PostgreSQL dialect, HikariCP pool of " + (THREADS + RateWriter.THREADS + 4)
                + ", " + THREADS + " processing threads, flushBatchSize " + FLUSH_BATCH + ", attemptFrequency "
                + ATTEMPT_FREQUENCY.toSeconds() + " s, flush called whenever fewer than a batch wait for a thread";
    }

    /** The library set up on its own pool, producer and processing threads. */
    private static final class Pipeline implements AutoCloseable {
        final HikariDataSource dataSource;
        final KafkaProducer<String, String> producer;
        final ThreadPoolExecutor workers = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        final ThreadLocalContextTransactionManager transactions;
        final TransactionOutbox outbox;
        volatile boolean processing;

        Pipeline(Env env) {
            HikariConfig pool = new HikariConfig();
            pool.setJdbcUrl(env.dbUrl());
            pool.setUsername(env.dbUser());
            pool.setPassword(env.dbPassword());
            pool.setMaximumPoolSize(THREADS + RateWriter.THREADS + 4);
            pool.setAutoCommit(false);
            dataSource = new HikariDataSource(pool);
            producer = env.producer();
            KafkaSender.producer = producer;
            KafkaSender sender = new KafkaSender();
            transactions = TransactionManager.fromDataSource(dataSource);
            Submitter submitter = (entry, process) -> {
                if (processing) {
                    workers.execute(() -> process.accept(entry));
                }
            };
            outbox = TransactionOutbox.builder()
                    .transactionManager(transactions)
                    .persistor(Persistor.forDialect(Dialect.POSTGRESQL_9))
                    .instantiator(Instantiator.using(type -> sender))
                    .submitter(submitter)
                    .attemptFrequency(ATTEMPT_FREQUENCY)
                    .flushBatchSize(FLUSH_BATCH)
                    .blockAfterAttempts(100)
                    .build();
            transactions.inTransaction(tx -> {
                try (var clear = tx.connection().createStatement()) {
                    clear.execute("DELETE FROM TXNO_OUTBOX");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }

        void schedule(String topic, long sequence) {
            try {
                outbox.schedule(KafkaSender.class).send(topic, Shape.key(sequence), Shape.payload(sequence, System.currentTimeMillis()));
            } catch (Exception notThrownWhenScheduling) { // the proxy records the call; it does not send
                throw new IllegalStateException(notThrownWhenScheduling);
            }
        }

        @Override
        public void close() throws Exception {
            processing = false;
            workers.shutdownNow();
            workers.awaitTermination(30, TimeUnit.SECONDS);
            producer.close();
            dataSource.close();
        }
    }

    @Override
    public Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception {
        String topic = env.freshTopic(name());
        try (Pipeline pipeline = new Pipeline(env); Admin admin = env.admin()) {
            // held back: entries committed while processing is off are left to the flush, which starts with the clock
            return Backlog.drain(env, n, timing, (from, to) -> pipeline.transactions.inTransaction(() -> {
                for (long i = from; i <= to; i++) {
                    pipeline.schedule(topic, i);
                }
            }), () -> pipeline.processing = true, () -> {
                if (pipeline.workers.getQueue().size() < FLUSH_BATCH) {
                    pipeline.outbox.flush();
                }
                return Env.endOffsets(admin, topic) >= n;
            });
        }
    }

    @Override
    public Steady steady(Env env) throws Exception {
        String topic = env.freshTopic(name());
        Pipeline pipeline = new Pipeline(env);
        pipeline.processing = true;
        ScheduledExecutorService background = Executors.newSingleThreadScheduledExecutor();
        background.scheduleWithFixedDelay(pipeline.outbox::flush, 1, 1, TimeUnit.SECONDS);
        return Steady.of(topic, "one transaction per event scheduling its entry; the commit submits it for processing at once",
                sequence -> pipeline.transactions.inTransaction(() -> pipeline.schedule(topic, sequence)), () -> {
                    background.shutdownNow();
                    background.awaitTermination(30, TimeUnit.SECONDS);
                    pipeline.close();
                });
    }
}

package io.outboxrelay.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The CDC path: Debezium's embedded engine reads the outbox table's inserts from PostgreSQL's
 * logical replication (pgoutput) and a reliable producer sends each row's payload (with Outbox
 * Relay's headers, the event id the row's); a batch is marked processed once Kafka acknowledged it.
 * The table is the one Debezium's outbox event router documents: the event's id (a UUID, its key,
 * which a consumer deduplicates on, as on Outbox Relay's {@code event_id}), the aggregate's type and
 * id, the event's type and the payload; the harness writes time-ordered ids, as Outbox Relay's append
 * does. Drain: the engine is started before the backlog is committed, so its slot keeps the WAL; held
 * back, it hands no batch over until the clock starts (what it read meanwhile waits in its queue, at most
 * {@value #QUEUE} changes, and blocks its reading of the WAL beyond that). Needs {@code wal_level=logical}.
 * Steady: the engine runs while rows are inserted one per transaction.
 */
final class DebeziumCdc implements Contender, Steady.Capable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH = 4096;
    private static final int QUEUE = 16384;
    private static final String TABLE = "bench_debezium_outbox";

    @Override
    public String name() {
        return "debezium";
    }

    @Override
    public String settings() {
        return "debezium-embedded 3.6.1.Final, PostgreSQL connector, pgoutput, snapshot.mode=no_data, max.batch.size=" + BATCH
                + ", max.queue.size=" + QUEUE + ", poll.interval.ms=50; batch produced then flushed (acks) before it is marked"
                + " processed; " + TABLE + " as the outbox event router documents it (id uuid primary key, aggregatetype,"
                + " aggregateid, type, payload jsonb)";
    }

    @Override
    public Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception {
        String topic = env.freshTopic(name());
        try (Engine engine = new Engine(env, topic); Admin admin = env.admin()) {
            return Backlog.drainRows(env, n, timing, "INSERT INTO " + TABLE + " (id, aggregatetype, aggregateid, type, payload)"
                    + " SELECT " + Shape.eventIdSql("i") + ", 'Bench', 'agg-' || (i % " + Shape.aggregates() + "), 'BenchEvent', "
                    + Shape.payloadSql("i") + " FROM generate_series(?, ?) AS i", false, engine.handingOver::countDown,
                    () -> Env.endOffsets(admin, topic) >= n);
        }
    }

    @Override
    public Steady steady(Env env) throws Exception {
        String topic = env.freshTopic(name());
        Engine engine = new Engine(env, topic);
        engine.handingOver.countDown();
        RowWriter rows = new RowWriter(env, "INSERT INTO " + TABLE + " (id, aggregatetype, aggregateid, type, payload)"
                + " VALUES (" + Shape.eventIdSql("floor(random() * 4096)::int") + ", 'Bench', ?, 'BenchEvent', ?::jsonb)");
        return rows.steady(topic, engine);
    }

    /** The embedded engine streaming {@value DebeziumCdc#TABLE} into a topic, from its start until closed. */
    private static final class Engine implements AutoCloseable {
        private final Env env;
        private final ExecutorService engineThread = Executors.newSingleThreadExecutor();
        private final KafkaProducer<String, String> producer;
        private final DebeziumEngine<ChangeEvent<String, String>> engine;
        /** Open once the engine may hand its batches over (the drain's hold). */
        final CountDownLatch handingOver = new CountDownLatch(1);

        Engine(Env env, String topic) throws Exception {
            this.env = env;
            env.sql("CREATE TABLE IF NOT EXISTS " + TABLE + " (id uuid PRIMARY KEY, aggregatetype varchar(255) NOT NULL,"
                    + " aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL, payload jsonb)");
            String slot = "bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            producer = env.producer();
            CountDownLatch streaming = new CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<String> failure = new java.util.concurrent.atomic.AtomicReference<>();
            engine = DebeziumEngine.create(Json.class)
                    .using(config(env, slot))
                    .using((success, message, error) -> {
                        if (!success) {
                            failure.set(message + (error == null ? "" : ": " + error));
                            streaming.countDown();
                        }
                    })
                    .using(new DebeziumEngine.ConnectorCallback() {
                        @Override
                        public void taskStarted() {
                            streaming.countDown();
                        }
                    })
                    .notifying((records, committer) -> {
                        handingOver.await();
                        for (ChangeEvent<String, String> record : records) {
                            JsonNode after;
                            try {
                                after = JSON.readTree(record.value()).path("after");
                            } catch (com.fasterxml.jackson.core.JsonProcessingException unreadable) {
                                throw new IllegalStateException("unreadable change event", unreadable);
                            }
                            if (!after.isMissingNode() && !after.isNull()) {
                                producer.send(Shape.record(topic, after.path("aggregateid").asText(),
                                        after.path("payload").asText(), after.path("id").asText()));
                            }
                        }
                        producer.flush(); // acknowledged before the batch counts as processed
                        for (ChangeEvent<String, String> record : records) {
                            committer.markProcessed(record);
                        }
                        committer.markBatchFinished();
                    })
                    .build();
            engineThread.execute(engine);
            if (!streaming.await(120, TimeUnit.SECONDS) || failure.get() != null) {
                close();
                throw new IllegalStateException("Debezium did not start: "
                        + (failure.get() == null ? "no task within 120 s" : failure.get()));
            }
            awaitSlotActive(env, slot);
        }

        private static Properties config(Env env, String slot) {
            URIParts db = URIParts.of(env.dbUrl());
            Properties config = new Properties();
            config.setProperty("name", slot);
            config.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
            config.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
            config.setProperty("offset.flush.interval.ms", "1000");
            config.setProperty("database.hostname", db.host());
            config.setProperty("database.port", Integer.toString(db.port()));
            config.setProperty("database.user", env.dbUser());
            config.setProperty("database.password", env.dbPassword());
            config.setProperty("database.dbname", db.database());
            config.setProperty("topic.prefix", slot);
            config.setProperty("table.include.list", "public." + TABLE);
            config.setProperty("plugin.name", "pgoutput");
            config.setProperty("slot.name", slot);
            config.setProperty("slot.drop.on.stop", "true");
            config.setProperty("publication.name", slot);
            config.setProperty("publication.autocreate.mode", "filtered");
            config.setProperty("snapshot.mode", "no_data");
            config.setProperty("max.batch.size", Integer.toString(BATCH));
            config.setProperty("max.queue.size", Integer.toString(QUEUE));
            config.setProperty("poll.interval.ms", "50");
            config.setProperty("key.converter.schemas.enable", "false");
            config.setProperty("value.converter.schemas.enable", "false");
            return config;
        }

        @Override
        public void close() throws Exception {
            try {
                handingOver.countDown(); // a held engine's handler returns, so that it can stop
                engine.close();
            } finally {
                engineThread.shutdownNow();
                engineThread.awaitTermination(60, TimeUnit.SECONDS);
                producer.close();
                env.sql("TRUNCATE " + TABLE);
            }
        }
    }

    private static void awaitSlotActive(Env env, String slot) throws Exception {
        try (Connection connection = env.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT active FROM pg_replication_slots WHERE slot_name = ?")) {
            query.setString(1, slot);
            Env.await("replication slot " + slot + " to become active", Duration.ofSeconds(60), Duration.ofMillis(50), () -> {
                try (ResultSet active = query.executeQuery()) {
                    return active.next() && active.getBoolean(1);
                }
            });
        }
    }

    /** Host, port and database of a {@code jdbc:postgresql://host:port/db} URL. */
    record URIParts(String host, int port, String database) {
        static URIParts of(String jdbcUrl) {
            java.net.URI uri = java.net.URI.create(jdbcUrl.substring("jdbc:".length()));
            String path = uri.getPath().substring(1);
            int query = path.indexOf('?');
            return new URIParts(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), query < 0 ? path : path.substring(0, query));
        }
    }
}

package io.outboxrelay.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the benchmark runs: one PostgreSQL, one Kafka cluster, optionally one Outbox Relay server. */
record Env(String dbUrl, String dbUser, String dbPassword, String bootstrap, String serverUrl, long serverPid) {

    /** The same place, with the server's JVM now at {@code pid} (after a restart). */
    Env withServerPid(long pid) {
        return new Env(dbUrl, dbUser, dbPassword, bootstrap, serverUrl, pid);
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(dbUrl, dbUser, dbPassword);
    }

    void sql(String statement) throws SQLException {
        try (Connection connection = connect(); Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }

    /**
     * Vacuums and analyzes {@code table} (as autovacuum would have, long before it changed this much)
     * and waits until no autovacuum worker is on it, so none runs through the timed drain that follows;
     * false when one still was after the wait's deadline.
     */
    boolean vacuumAndAwaitNoAutovacuum(String table) throws SQLException {
        sql("VACUUM (ANALYZE) " + table);
        return awaitNoAutovacuum(table);
    }

    /**
     * Waits until no autovacuum worker works on {@code table}, so that none runs through a timed
     * drain that follows a big change to it; returns false (and says so) when one still did after
     * ten minutes. A role that may not see other sessions (neither superuser nor
     * {@code pg_read_all_stats}, like the benchmark stack's) sees neither a worker's query nor the
     * table its vacuum works on: then any vacuum in progress in the database counts.
     */
    boolean awaitNoAutovacuum(String table) throws SQLException {
        try (Connection connection = connect(); PreparedStatement workers = connection.prepareStatement("""
                SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND query ILIKE ?)
                     + (SELECT count(*) FROM pg_stat_progress_vacuum WHERE datname = current_database()
                          AND (relid IS NULL OR relid = ?::regclass))""")) {
            workers.setString(1, "%" + table + "%");
            workers.setString(2, table);
            await("no autovacuum worker on " + table, Duration.ofMinutes(10), Duration.ofMillis(500), () -> {
                try (ResultSet count = workers.executeQuery()) {
                    return count.next() && count.getLong(1) == 0;
                }
            });
            return true;
        } catch (ConditionTimeoutException stillRunning) {
            System.out.println("database an autovacuum worker still works on " + table + " after 10 minutes; going on");
            return false;
        }
    }

    /**
     * An HTTP/1.1 client for the server, as a load balancer or a browser on plain HTTP would talk to it;
     * the JDK's default upgrade to HTTP/2 over cleartext left the server's request threads waiting under load.
     */
    static java.net.http.HttpClient http() {
        return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", bootstrap));
    }

    /** The same reliable producer for every contender that produces itself: acks=all, idempotent. */
    KafkaProducer<String, String> producer() {
        Map<String, Object> config = new HashMap<>();
        config.put("bootstrap.servers", bootstrap);
        config.put("acks", "all");
        config.put("enable.idempotence", "true");
        config.put("linger.ms", "5");
        config.put("compression.type", "lz4");
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    /** A fresh topic with {@link Shape#PARTITIONS} partitions, ready to take records. */
    String freshTopic(String contender) throws Exception {
        String topic = "bench." + contender + "." + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, Shape.PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            await("topic " + topic + " to have leaders", Duration.ofSeconds(60), Duration.ofMillis(50),
                    () -> endOffsets(admin, topic) >= 0);
        }
        return topic;
    }

    /** Records acknowledged on the topic so far (sum of end offsets), or -1 while it is not ready. */
    static long endOffsets(Admin admin, String topic) {
        try {
            Map<TopicPartition, OffsetSpec> latest = IntStream.range(0, Shape.PARTITIONS).boxed()
                    .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).values().stream()
                    .mapToLong(info -> info.offset()).sum();
        } catch (Exception notReady) {
            return -1;
        }
    }

    /** Waits until {@code count} records are on the topic; returns when that was seen ({@link System#nanoTime()}). */
    static long awaitOnTopic(Admin admin, String topic, long count, Duration patience) {
        await(topic + " to reach " + count + " records", patience, Duration.ofMillis(20), () -> endOffsets(admin, topic) >= count);
        return System.nanoTime();
    }

    /**
     * The Outbox Relay server's meters on /outbox/prometheus that {@code meter} matches: each keyed by its groups but
     * the last, joined with "/", the last group being the value.
     */
    Map<String, Double> serverMeters(Pattern meter) throws Exception {
        String body = http().send(HttpRequest.newBuilder(URI.create(serverUrl() + "/outbox/prometheus"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> meters = new HashMap<>();
        Matcher found = meter.matcher(body);
        while (found.find()) {
            StringJoiner key = new StringJoiner("/");
            for (int group = 1; group < found.groupCount(); group++) {
                key.add(found.group(group));
            }
            meters.put(key.toString(), Double.parseDouble(found.group(found.groupCount())));
        }
        return meters;
    }

    /** Checks {@code condition} every {@code every} until it holds; fails after {@code patience}. */
    static void await(String what, Duration patience, Duration every, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(patience).pollDelay(Duration.ZERO).pollInterval(every).until(condition);
    }
}

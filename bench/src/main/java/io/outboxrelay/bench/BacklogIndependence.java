package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Whether SENT history slows the relay: the same pending rows drained with (almost) no SENT rows
 * in {@code outbox_event}, then again after millions of SENT rows were added. The relay's own
 * meters ({@code outbox_relay_round_seconds}, {@code outbox_relay_batch_events} on /outbox/prometheus)
 * give the mean round (claim, publish, mark) and batch of each drain. The SENT rows are marked by
 * aggregate type {@value #MARKER}; they are removed afterwards (the whole table is emptied when
 * the benchmark owns the stack).
 */
final class BacklogIndependence {

    static final String MARKER = "BenchSent";
    private static final int FILL_CHUNK = 1_000_000;
    private static final Pattern METER = Pattern.compile("(?m)^(outbox_relay_(?:round_seconds|batch_events)_(?:sum|count))\\s+(\\S+)");

    /** One drain: SENT rows in the table, pending rows drained, and what the relay's meters said. */
    record Level(long sentRows, int pending, double eventsPerSecond, double committedSeconds, long rounds, double meanRoundMillis,
                 double meanBatch) {
    }

    record Result(Level without, Level with, String fill, Backlog.Timing timing) {
    }

    private BacklogIndependence() {
    }

    static Result measure(Env env, OutboxRelayServer relay, Backlog.Timing timing, boolean ownsStack, int pending, long sent)
            throws Exception {
        if (ownsStack) {
            env.sql("TRUNCATE outbox_event");
        }
        boolean quiet = env.vacuumAndAwaitNoAutovacuum("outbox_event");
        Level without = drain(env, relay, timing, pending);
        try {
            System.out.printf("backlog  filling %,d SENT rows ...%n", sent);
            long filling = System.nanoTime();
            for (long from = 1; from <= sent; from += FILL_CHUNK) {
                long to = Math.min(sent, from + FILL_CHUNK - 1);
                // each published event as the relay leaves it: its outbox row and its record in outbox_sent (the
                // row's own status says SENT, as an earlier release's did, so that no queue row is made and deleted)
                env.sql("WITH history AS (INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic,"
                        + " payload, headers, status, kafka_partition, kafka_offset, published_at)"
                        + " SELECT " + Shape.eventIdSql("i") + ", '" + MARKER + "', 'agg-' || (i % " + Shape.aggregates() + "), 'BenchEvent',"
                        + " 'bench.sent', " + Shape.payloadSql("i") + ", '{}'::jsonb, 'SENT', (i % " + Shape.PARTITIONS + ")::int,"
                        + " i, now() FROM generate_series(" + from + ", " + to + ") AS i"
                        + " RETURNING id, kafka_partition, kafka_offset, published_at)"
                        + " INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT * FROM history");
            }
            quiet &= env.vacuumAndAwaitNoAutovacuum("outbox_event");
            quiet &= env.vacuumAndAwaitNoAutovacuum("outbox_sent");
            String fill = String.format(java.util.Locale.ROOT, "%,d SENT rows (outbox rows and their records in outbox_sent)"
                    + " by INSERT ... SELECT generate_series in %.0f s, then"
                    + " VACUUM (ANALYZE) and, before each of the two drains, a wait until no autovacuum worker worked on"
                    + " outbox_event or outbox_sent%s", sent, (System.nanoTime() - filling) / 1e9,
                    quiet ? "" : " (one still did after 10 minutes: the drains ran beside it)");
            System.out.println("backlog  " + fill);
            return new Result(without, drain(env, relay, timing, pending), fill, timing);
        } finally {
            env.sql(ownsStack ? "TRUNCATE outbox_event" : "DELETE FROM outbox_event WHERE aggregate_type = '" + MARKER + "'");
        }
    }

    private static Level drain(Env env, OutboxRelayServer relay, Backlog.Timing timing, int pending) throws Exception {
        long sentRows = sentRows(env);
        Map<String, Double> before = meters(env);
        Backlog.Drained drained = relay.drain(env, pending, timing);
        // the last round reports once it has marked its rows, a moment after Kafka acked them
        Env.await("the relay's meters to count the drained rows", Duration.ofSeconds(30), Duration.ofMillis(50),
                () -> delta(before, meters(env), "outbox_relay_batch_events_sum") >= pending);
        Map<String, Double> after = meters(env);
        long rounds = Math.round(delta(before, after, "outbox_relay_round_seconds_count"));
        double roundSeconds = delta(before, after, "outbox_relay_round_seconds_sum");
        double events = delta(before, after, "outbox_relay_batch_events_sum");
        Level level = new Level(sentRows, pending, pending / (drained.nanos() / 1e9), drained.committedNanos() / 1e9, rounds,
                rounds == 0 ? Double.NaN : 1000 * roundSeconds / rounds, rounds == 0 ? Double.NaN : events / rounds);
        System.out.printf("backlog  %,d SENT rows: %,.0f events/s (its rows committed in %.1f s), %d rounds, mean round %.1f ms,"
                + " mean batch %.0f%n", level.sentRows(), level.eventsPerSecond(), level.committedSeconds(), level.rounds(),
                level.meanRoundMillis(), level.meanBatch());
        return level;
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String meter) {
        return after.getOrDefault(meter, 0.0) - before.getOrDefault(meter, 0.0);
    }

    private static long sentRows(Env env) throws Exception {
        try (Connection connection = env.connect(); Statement sql = connection.createStatement();
             ResultSet count = sql.executeQuery("SELECT count(*) FROM outbox_event_state WHERE status = 'SENT'")) {
            count.next();
            return count.getLong(1);
        }
    }

    /** The relay's round and batch sums and counts, as the server's /outbox/prometheus shows them now. */
    private static Map<String, Double> meters(Env env) throws Exception {
        return env.serverMeters(METER);
    }
}

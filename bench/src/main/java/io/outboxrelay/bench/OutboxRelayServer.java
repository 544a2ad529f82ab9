package io.outboxrelay.bench;

import org.apache.kafka.clients.admin.Admin;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Outbox Relay in its Liberty server. Drains: earlier drains' rows are deleted, the backlog is
 * committed into {@code outbox_event} (as the server's own append would write them, each
 * transaction with the {@code NOTIFY} the append sends), and the server's relay publishes them,
 * while the server's memory is watched; held back by a {@link RelayHold} where the timing asks for it
 * and the server's relay can be held (not in CDC mode, whose stream does not wait for the instance lock).
 * Steady: orders are created through the server's API, so each event is appended in the order's
 * transaction and its commit wakes the relay, as in production.
 */
final class OutboxRelayServer implements Contender, Steady.Capable {

    private final String name;
    private final String settings;
    private final boolean holdable;
    private final ServerMemory memory = new ServerMemory();
    private final RelayPaths paths = new RelayPaths();

    OutboxRelayServer(String name, String settings) {
        this(name, settings, true);
    }

    /** {@code holdable}: whether a {@link RelayHold} stops this server's publishing (false in CDC mode). */
    OutboxRelayServer(String name, String settings, boolean holdable) {
        this.name = name;
        this.settings = settings;
        this.holdable = holdable;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String settings() {
        return settings;
    }

    ServerMemory memory() {
        return memory;
    }

    RelayPaths paths() {
        return paths;
    }

    @Override
    public Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception {
        return drain(env, n, timing, true);
    }

    /** Its memory and the paths its events took are not noted: they describe the counted drains. */
    @Override
    public Backlog.Drained warmUp(Env env, int n, Backlog.Timing timing) throws Exception {
        return drain(env, n, timing, false);
    }

    private Backlog.Drained drain(Env env, int n, Backlog.Timing timing, boolean noted) throws Exception {
        requireReady(env);
        String topic = env.freshTopic(name());
        // like every other contender's, the drain starts without earlier drains' rows: the cost of a
        // SENT history is the backlog-independence figure's, and the server's own rows stay
        env.sql("DELETE FROM outbox_event WHERE aggregate_type = 'Bench'");
        env.vacuumAndAwaitNoAutovacuum("outbox_event");
        Map<String, Double> meters = RelayPaths.snapshot(env);
        Backlog.Drained drained;
        Backlog.Timing used = holdable ? timing : Backlog.Timing.WHILE_WRITTEN;
        try (Admin admin = env.admin(); AutoCloseable watching = noted ? memory.watchDrain(env, n) : () -> { };
             RelayHold hold = used == Backlog.Timing.AFTER_WRITTEN ? RelayHold.take(env) : null) {
            drained = Backlog.drainRows(env, n, used, "INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type,"
                    + " topic, payload, headers) SELECT " + Shape.eventIdSql("i") + ", 'Bench', 'agg-' || (i % " + Shape.aggregates()
                    + "), 'BenchEvent', '" + topic + "', " + Shape.payloadSql("i") + ", '{}'::jsonb FROM generate_series(?, ?) AS i",
                    true, () -> {
                        if (hold != null) {
                            long early = Env.endOffsets(admin, topic);
                            if (early > 0) {
                                throw new IllegalStateException("the held relay published " + early + " records before its release");
                            }
                            hold.release();
                        }
                    }, () -> Env.endOffsets(admin, topic) >= n);
        }
        if (noted) {
            paths.noteDrain(env, n, drained.nanos(), meters);
        }
        return drained;
    }

    @Override
    public Steady steady(Env env) throws Exception {
        requireReady(env);
        return new OrdersApiWriter(env.serverUrl());
    }

    static void requireReady(Env env) throws Exception {
        HttpResponse<String> ready = Env.http().send(
                HttpRequest.newBuilder(URI.create(env.serverUrl() + "/health/ready")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (ready.statusCode() != 200) {
            throw new IllegalStateException("the Outbox Relay server at " + env.serverUrl() + " is not ready: " + ready.body());
        }
    }
}

package io.outboxrelay.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the figures and writes them to {@code results/}: the backlog drain (contenders one at a
 * time, in interleaved rounds A B C ... A B C ... so drift hits all alike), backlog independence,
 * steady latency, the write path's cost and, when this process started the server itself, the
 * write path with the relay off and without the append, a tuned Outbox Relay and Outbox Relay in CDC mode. Prints figures
 * and the goals they meet or not; asserts nothing.
 * <pre>
 * Bench --mode smoke|quick|full --db-url jdbc:postgresql://127.0.0.1:5432/outbox --db-user u --db-password p
 *       --kafka 127.0.0.1:9092 --server http://127.0.0.1:9080 [--server-pid N] [--start-server true]
 *       [--owns-stack true] [--only a,b] [--out results]
 * </pre>
 * Sizes can be overridden to try a figure small: {@code --figures drain,backlog,steady,write,tuned,cdc},
 * {@code --rows}, {@code --rounds}, {@code --steady-rates 200,400}, {@code --steady-seconds}, {@code --warm-up} (events),
 * {@code --write-seconds}, {@code --backlog-pending}, {@code --backlog-sent}; {@code --rows-notify coalesced|each-commit}:
 * how outbox-relay-rows wakes the relay (the append's way, the default, or its way before 2026-12-03);
 * {@code --steady-search false}: only the given steady rates, no search for the highest sustained one;
 * {@code --drain-timing after-written|while-written}: the drains' clock (see {@link Backlog.Timing}; after-written, the
 * default, holds each contender back while its backlog is committed); {@code --drain-warm-up 0.2}: the share of its
 * rows each contender drains unmeasured before the first round (0: none, as before 2026-12-07, night);
 * {@code --server-consumers-away true}: the given server's sample consumers read another topic ({@link #CONSUMERS_AWAY}),
 * so its write path is the one with the append and the relay alone, and nothing waits for the consumers;
 * {@code --aggregates N}: the events of every contender are spread over N aggregates, in turn (1,000 by default;
 * with per-aggregate ordering a relay holds at most one event of an aggregate in flight).
 */
public final class Bench {

    /** The restarted server's settings: the tuned relay, and the orders API without the append. */
    static final Map<String, String> TUNED = Map.of("OUTBOX_RELAY_BATCH_SIZE", "2000", "OUTBOX_RELAY_ORDERING", "none");
    static final Map<String, String> NO_APPEND = Map.of("OUTBOX_SAMPLE_ORDERS_APPEND_EVENTS", "false");
    /** CDC mode; the polling relay's handover long enough that it takes nothing from the stream during a drain. */
    static final Map<String, String> CDC = Map.of("OUTBOX_PUBLISHER", "cdc", "OUTBOX_CDC_HANDOVER_MS", "600000");
    static final String CDC_NAME = "outbox-relay-cdc";
    /** The server's two sample consumers subscribed to a topic nothing writes to: the append and the relay alone. */
    static final Map<String, String> CONSUMERS_AWAY = Map.of("MP_MESSAGING_INCOMING_INVENTORY_TOPIC", "bench.consumers-away",
            "MP_MESSAGING_INCOMING_NOTIFICATIONS_TOPIC", "bench.consumers-away");
    static final String WITH_CONSUMERS = "appends OrderCreated, relays it, and the two sample consumers read it";
    static final String WITHOUT_CONSUMERS = "appends OrderCreated and relays it; the sample consumers read another topic";
    static final String WITHOUT_APPEND = "`outbox.sample.orders.append-events=false`; the sample consumers read another topic";
    /** The append alone: the relay off, so the append's cost and the relay's can be told apart. */
    static final Map<String, String> RELAY_OFF = Map.of("OUTBOX_RELAY_ENABLED", "false");
    static final String RELAY_OFF_WRITES = "appends OrderCreated, relay off (`OUTBOX_RELAY_ENABLED=false`); the sample consumers"
            + " read another topic";

    /** How big a run is. */
    enum Mode {
        SMOKE(200, 1, 200, 200, 2, List.of(200), List.of("outbox-relay", OutboxRelayRows.NAME, "raw-kafka"), 200, false, 2, 2_000, 10_000),
        QUICK(100_000, 3, 10_000, 100_000, 15, List.of(500, 1_000, 5_000), List.of(), 5_000, true, 15, 20_000, 1_000_000),
        // gruelbox drains at a flat ~2,000 events/s: 200,000 rows measure it as well as 1,000,000
        // would, in 100 s a round instead of 500 s
        FULL(1_000_000, 3, 20_000, 200_000, 30, List.of(500, 1_000, 5_000), List.of(), 10_000, true, 60, 100_000, 10_000_000);

        final int rows;
        final int rounds;
        final int slowCap;
        /** Rows gruelbox drains (fewer than {@code rows} in full mode). */
        final int gruelboxRows;
        final int steadySeconds;
        final List<Integer> steadyRates;
        final List<String> steadyOnly;
        /** Events each contender writes unmeasured before its first steady step. */
        final int warmUp;
        final boolean search;
        final int writeSeconds;
        final int backlogPending;
        final long backlogSent;

        Mode(int rows, int rounds, int slowCap, int gruelboxRows, int steadySeconds, List<Integer> steadyRates, List<String> steadyOnly,
             int warmUp, boolean search, int writeSeconds, int backlogPending, long backlogSent) {
            this.rows = rows;
            this.rounds = rounds;
            this.slowCap = slowCap;
            this.gruelboxRows = gruelboxRows;
            this.steadySeconds = steadySeconds;
            this.steadyRates = steadyRates;
            this.steadyOnly = steadyOnly;
            this.warmUp = warmUp;
            this.search = search;
            this.writeSeconds = writeSeconds;
            this.backlogPending = backlogPending;
            this.backlogSent = backlogSent;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        Mode mode = Mode.valueOf(options.get("mode", "quick").toUpperCase(Locale.ROOT));
        Env env = new Env(options.require("db-url"), options.require("db-user"), options.require("db-password"),
                options.require("kafka"), options.get("server", "http://127.0.0.1:9080"),
                Long.parseLong(options.get("server-pid", "0")));
        List<String> only = options.list("only", List.of());
        List<String> figures = options.list("figures", List.of("drain", "backlog", "steady", "write", "tuned", "cdc"));
        boolean startServer = Boolean.parseBoolean(options.get("start-server", "false"));
        boolean ownsStack = Boolean.parseBoolean(options.get("owns-stack", "false"));
        boolean consumersAway = Boolean.parseBoolean(options.get("server-consumers-away", "false"));
        if (consumersAway && startServer) {
            throw new IllegalArgumentException("--server-consumers-away describes a server given to the harness; the one it"
                    + " starts itself runs its sample consumers on the orders' topic");
        }
        int rows = options.integer("rows", mode.rows);
        Shape.spreadOver(options.integer("aggregates", Shape.aggregates()));
        boolean search = Boolean.parseBoolean(options.get("steady-search", String.valueOf(mode.search)));
        int rounds = options.integer("rounds", mode.rounds);
        Path log = Path.of("bench", ".stack", "server.log");
        Path pidFile = Path.of("bench", ".stack", "server.pid");

        OutboxRelayServer relay = new OutboxRelayServer("outbox-relay",
                "the server's settings: defaults (aggregate ordering, up to 4 events per aggregate, batch 2,000, 1 worker) unless its"
                        + " environment says otherwise");
        List<Contender> contenders = new ArrayList<>(List.of(new RawKafka(), relay, new Gruelbox(), new DebeziumCdc(),
                new SeedsPoller()));
        // the steady figure has one contender more: Outbox Relay with plain rows, beside its orders API
        Map<String, Steady.Capable> steadyContenders = new LinkedHashMap<>();
        for (Contender contender : contenders) {
            if (contender instanceof Steady.Capable capable) {
                steadyContenders.put(contender.name(), capable);
            }
            if (contender == relay) {
                steadyContenders.put(OutboxRelayRows.NAME, new OutboxRelayRows(
                        OutboxRelayRows.Notify.valueOf(options.get("rows-notify", "coalesced").toUpperCase().replace('-', '_'))));
            }
        }
        contenders.removeIf(contender -> !only.isEmpty() && !only.contains(contender.name()));
        steadyContenders.keySet().removeIf(name -> !only.isEmpty() && !only.contains(name));
        Backlog.Timing timing = Backlog.Timing.of(options.get("drain-timing", Backlog.Timing.AFTER_WRITTEN.option()));
        Drains drains = new Drains(rows, rounds, mode.slowCap, Math.min(rows, mode.gruelboxRows),
                Double.parseDouble(options.get("drain-warm-up", "0.2")), timing);
        List<SteadyLatency.Step> steady = new ArrayList<>();
        Map<String, String> steadyWrites = new LinkedHashMap<>();
        WritePath.Result withAppend = null;
        WritePath.Result withoutConsumers = null;
        WritePath.Result withoutAppend = null;
        WritePath.Result relayOff = null;
        BacklogIndependence.Result backlog = null;
        OutboxRelayServer tuned = null;
        OutboxRelayServer cdc = null;
        List<String> notMeasured = new ArrayList<>();

        PostgresSettings postgres = PostgresSettings.read(env);
        System.out.println("database " + postgres.markdown());
        ServerProcess server = startServer ? ServerProcess.start(env.serverUrl(), Map.of(), log, pidFile) : null;
        try {
            if (server != null) {
                env = env.withServerPid(server.jvmPid());
            }
            if (!consumersAway && (contenders.contains(relay) || figures.contains("write"))) {
                // orders an earlier run left unconsumed on the same stack would be consumed during this one's figures
                System.out.printf("server   the sample consumers caught up in %.1f s%n",
                        SampleConsumers.awaitCaughtUp(env, Duration.ofMinutes(15)));
            }
            if (figures.contains("drain")) {
                drains.run(env, contenders);
            }
            if (figures.contains("backlog")) {
                backlog = BacklogIndependence.measure(env, relay, timing, ownsStack, options.integer("backlog-pending", mode.backlogPending),
                        options.integer("backlog-sent", (int) Math.min(Integer.MAX_VALUE, mode.backlogSent)));
            }
            if (figures.contains("steady")) {
                List<String> steadyOnly = options.list("steady-only", mode.steadyOnly);
                List<Integer> rates = options.list("steady-rates", mode.steadyRates.stream().map(String::valueOf).toList())
                        .stream().map(Integer::valueOf).toList();
                Duration stepTime = Duration.ofSeconds(options.integer("steady-seconds", mode.steadySeconds));
                for (Map.Entry<String, Steady.Capable> contender : steadyContenders.entrySet()) {
                    if (steadyOnly.isEmpty() || steadyOnly.contains(contender.getKey())) {
                        steady.addAll(SteadyLatency.run(env, contender.getKey(), contender.getValue(), rates, search,
                                options.integer("warm-up", mode.warmUp), stepTime, steadyWrites));
                    }
                }
            }
            Duration writeTime = Duration.ofSeconds(options.integer("write-seconds", mode.writeSeconds));
            // the least warm-up: a freshly started server creates half the orders per second until its JIT has compiled
            // the request path, and WritePath goes on warming up until the JIT is done
            Duration writeWarmUp = writeTime.multipliedBy(2);
            if (figures.contains("write")) {
                if (consumersAway) { // the given server is already the one whose consumers read another topic
                    withoutConsumers = WritePath.measure(env, WITHOUT_CONSUMERS, false, writeWarmUp, writeTime);
                } else {
                    withAppend = WritePath.measure(env, WITH_CONSUMERS, true, writeWarmUp, writeTime);
                }
            }
            if (server != null && figures.contains("write")) {
                server = restart(server, env, CONSUMERS_AWAY, log, pidFile);
                env = env.withServerPid(server.jvmPid());
                withoutConsumers = WritePath.measure(env, WITHOUT_CONSUMERS, false, writeWarmUp, writeTime);
                Map<String, String> restart = new LinkedHashMap<>(RELAY_OFF);
                restart.putAll(CONSUMERS_AWAY);
                server = restart(server, env, restart, log, pidFile);
                env = env.withServerPid(server.jvmPid());
                relayOff = WritePath.measure(env, RELAY_OFF_WRITES, false, writeWarmUp, writeTime);
            }
            if (server != null && (figures.contains("write") || figures.contains("tuned"))) {
                Map<String, String> restart = new LinkedHashMap<>(TUNED);
                restart.putAll(NO_APPEND);
                // the orders the previous server appended are not consumed by this one either
                restart.putAll(CONSUMERS_AWAY);
                server = restart(server, env, restart, log, pidFile);
                env = env.withServerPid(server.jvmPid());
                if (relayOff != null) {
                    // what the server with the relay off appended is relayed now, before anything is measured
                    System.out.printf("server   the relay published what the relay-off server appended in %.1f s%n",
                            awaitNothingPending(env));
                }
                if (figures.contains("write")) {
                    withoutAppend = WritePath.measure(env, WITHOUT_APPEND, false, writeWarmUp, writeTime);
                }
                if (figures.contains("tuned") && (only.isEmpty() || only.contains("outbox-relay"))) {
                    tuned = new OutboxRelayServer("outbox-relay-tuned", "the server restarted with " + TUNED
                            + " (batch 2000, no ordering; the rest default); " + NO_APPEND + " and the sample consumers on another"
                            + " topic as well, which the drain does not use");
                    drains.run(env, List.of(tuned));
                }
            } else if (server == null) {
                notMeasured.add("the write path without the append, without the consumers or with the relay off, the tuned"
                        + " Outbox Relay and Outbox Relay in CDC mode: they need a server restart, and this run used a server"
                        + " it did not start");
            }
            if (server != null && figures.contains("cdc") && (only.isEmpty() || only.contains(CDC_NAME))) {
                server = restart(server, env, CDC, log, pidFile);
                env = env.withServerPid(server.jvmPid());
                cdc = new OutboxRelayServer(CDC_NAME, "the server restarted with " + CDC + ": Debezium's embedded engine"
                        + " streams the outbox's inserts and the relay publishes them by id (the rest default; the polling"
                        + " relay's handover 10 minutes, so it takes nothing from the stream); timed while written: its stream"
                        + " does not wait for the instance lock that holds the polling relay back", false);
                drains.run(env, List.of(cdc));
                if (figures.contains("steady")) {
                    List<Integer> rates = options.list("steady-rates", mode.steadyRates.stream().map(String::valueOf).toList())
                            .stream().map(Integer::valueOf).toList();
                    steady.addAll(SteadyLatency.run(env, CDC_NAME + "-rows", new OutboxRelayRows(OutboxRelayRows.Notify.NONE),
                            rates, search,
                            options.integer("warm-up", mode.warmUp),
                            Duration.ofSeconds(options.integer("steady-seconds", mode.steadySeconds)), steadyWrites));
                }
            }
        } finally {
            if (server != null) {
                server.stop();
            }
        }

        List<Contender> reported = new ArrayList<>(contenders);
        if (tuned != null) {
            reported.add(reported.indexOf(relay) + 1, tuned);
        }
        if (cdc != null) {
            reported.add(reported.contains(relay) ? reported.indexOf(relay) + 1 : reported.size(), cdc);
        }
        Figures extra = new Figures(steady, steadyWrites, withAppend, withoutConsumers, relayOff, withoutAppend, backlog,
                relay.memory(), tuned == null ? null : tuned.memory(), tuned == null ? null : TUNED.toString(),
                startServer ? outOfMemory(log) : null, notMeasured);
        Report report = new Report(LocalDate.now(), Machine.describe(), mode.name().toLowerCase(Locale.ROOT), postgres,
                reported, drains.eventsPerSecond(), drains.committedSeconds(), drains.rowsDrained(), drains.warmUpRows(), drains.timings(), drains.cpu(),
                relay.memory().peakRssMiB() * 1024, extra);
        Path out = Path.of(options.get("out", "results"));
        Files.createDirectories(out);
        String base = report.date() + "-" + report.machine().label() + "-" + report.mode();
        Files.writeString(out.resolve(base + ".json"), report.json());
        Files.writeString(out.resolve(base + ".md"), report.markdown());
        Files.writeString(out.resolve(base + ".svg"), report.svg());
        System.out.println();
        System.out.println(report.markdown());
        System.out.println("written: " + out.resolve(base + ".{json,md,svg}"));
        for (Contender contender : contenders) {
            contender.close();
        }
    }

    /** Whether the log of the servers this run started shows an OutOfMemoryError; null without a log. */
    private static Boolean outOfMemory(Path log) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        try (Stream<String> lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return lines.anyMatch(line -> line.contains("OutOfMemoryError"));
        }
    }

    /** Waits until the queue of unsent events holds none that waits for the relay; returns the seconds that took. */
    private static double awaitNothingPending(Env env) throws Exception {
        long start = System.nanoTime();
        try (Connection connection = env.connect(); Statement sql = connection.createStatement()) {
            Env.await("the relay to publish every pending event", Duration.ofMinutes(15), Duration.ofMillis(500), () -> {
                try (ResultSet pending = sql.executeQuery(
                        "SELECT count(*) FROM outbox_unsent WHERE status = 'PENDING'")) {
                    return pending.next() && pending.getLong(1) == 0;
                }
            });
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static ServerProcess restart(ServerProcess server, Env env, Map<String, String> settings, Path log, Path pidFile)
            throws Exception {
        server.stop();
        System.out.println("server   restarting with " + settings + " ...");
        return ServerProcess.start(env.serverUrl(), settings, log, pidFile);
    }

    /** {@code --name value} pairs. */
    private record Options(Map<String, String> values) {
        Options(String[] args) {
            this(new LinkedHashMap<>());
            for (int i = 0; i < args.length; i++) {
                if (!args[i].startsWith("--") || i + 1 >= args.length) {
                    throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
                }
                values.put(args[i].substring(2), args[++i]);
            }
        }

        String get(String name, String otherwise) {
            return values.getOrDefault(name, otherwise);
        }

        int integer(String name, int otherwise) {
            return values.containsKey(name) ? Integer.parseInt(values.get(name)) : otherwise;
        }

        List<String> list(String name, List<String> otherwise) {
            return values.containsKey(name) ? Arrays.asList(values.get(name).split(",")) : otherwise;
        }

        String require(String name) {
            String value = values.get(name);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("--" + name + " is required");
            }
            return value;
        }
    }
}

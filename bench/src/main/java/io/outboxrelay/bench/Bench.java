package io.outboxrelay.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the contenders one at a time, in interleaved rounds (A B C ... A B C ...) so drift hits
 * all alike, and writes the figures to {@code results/}. Prints figures; asserts nothing.
 * <pre>
 * Bench --mode smoke|quick|full --db-url jdbc:postgresql://127.0.0.1:5432/outbox --db-user u --db-password p
 *       --kafka 127.0.0.1:9092 --server http://127.0.0.1:9080 [--server-pid N] [--only a,b] [--out results]
 * </pre>
 */
public final class Bench {

    /** How big a run is: rows per drain, rounds, and the cap for contenders too slow to drain the full count. */
    enum Mode {
        SMOKE(200, 1, 200), QUICK(100_000, 3, 10_000), FULL(1_000_000, 3, 20_000);

        final int rows;
        final int rounds;
        final int slowCap;

        Mode(int rows, int rounds, int slowCap) {
            this.rows = rows;
            this.rounds = rounds;
            this.slowCap = slowCap;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Mode mode = Mode.valueOf(options.getOrDefault("mode", "quick").toUpperCase(java.util.Locale.ROOT));
        Env env = new Env(require(options, "db-url"), require(options, "db-user"), require(options, "db-password"),
                require(options, "kafka"), options.getOrDefault("server", "http://127.0.0.1:9080"),
                Long.parseLong(options.getOrDefault("server-pid", "0")));
        List<String> only = options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();

        OutboxRelayServer relay = new OutboxRelayServer();
        List<Contender> contenders = new ArrayList<>(List.of(new RawKafka(), relay, new Gruelbox(), new DebeziumCdc(),
                new SeedsPoller()));
        contenders.removeIf(contender -> !only.isEmpty() && !only.contains(contender.name()));

        Map<String, List<Double>> eventsPerSecond = new LinkedHashMap<>();
        Map<String, Integer> rowsDrained = new LinkedHashMap<>();
        for (int round = 1; round <= mode.rounds; round++) {
            for (Contender contender : contenders) {
                int rows = contender instanceof SeedsPoller ? Math.min(mode.rows, mode.slowCap) : mode.rows;
                System.out.printf("round %d/%d  %-13s draining %,d rows ...%n", round, mode.rounds, contender.name(), rows);
                long nanos = contender.drain(env, rows);
                double perSecond = rows / (nanos / 1e9);
                eventsPerSecond.computeIfAbsent(contender.name(), name -> new ArrayList<>()).add(perSecond);
                rowsDrained.put(contender.name(), rows);
                System.out.printf("round %d/%d  %-13s %,10.0f events/s  (%,.2f s)%n", round, mode.rounds, contender.name(),
                        perSecond, nanos / 1e9);
            }
        }

        Report report = new Report(LocalDate.now(), Machine.describe(), mode.name().toLowerCase(java.util.Locale.ROOT),
                contenders, eventsPerSecond, rowsDrained, relay.maxRssKiB());
        Path out = Path.of(options.getOrDefault("out", "results"));
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

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static String require(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }
}

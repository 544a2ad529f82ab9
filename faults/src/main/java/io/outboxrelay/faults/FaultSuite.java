package io.outboxrelay.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the fault scenarios one after another on one stack and prints the counted table.
 * Exits with 1 when any promise was not kept.
 * <pre>
 * FaultSuite --mode quick|full --stack-script devstack/stack --stack-dir D --wlp example/target/liberty/wlp
 *            --war example/target/outbox-relay.war --server-xml example/src/main/liberty/config/server.xml
 *            --local-users example/src/main/liberty/local/local-users.xml --out faults/results [--only 1,2,4]
 *            [--publisher polling|cdc]
 * </pre>
 */
public final class FaultSuite {

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Mode mode = Mode.valueOf(options.getOrDefault("mode", "quick").toUpperCase(Locale.ROOT));
        Path stackDir = Path.of(require(options, "stack-dir")).toAbsolutePath();
        Stack stack = new Stack(Path.of(require(options, "stack-script")).toAbsolutePath(), stackDir);
        Installation installation = new Installation(Path.of(require(options, "wlp")).toAbsolutePath(),
                Path.of(require(options, "war")).toAbsolutePath(), Path.of(require(options, "server-xml")).toAbsolutePath(),
                Path.of(require(options, "local-users")).toAbsolutePath(), stackDir.resolve("wlp"));
        List<String> only = options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();
        String runId = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000_000L, 36);
        String publisher = options.getOrDefault("publisher", "polling");
        if (!List.of("polling", "cdc").contains(publisher)) {
            throw new IllegalArgumentException("--publisher is polling or cdc, not " + publisher);
        }
        Suite suite = new Suite(mode, publisher, stack, installation, runId);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                suite.stopAll();
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
            }
        }));

        List<Result> results = new ArrayList<>();
        try {
            if (wanted(only, "8")) {
                results.add(report(ProductionProfile.run(suite)));
            }
            if (wanted(only, "1")) {
                results.add(report(ServerCrash.run(suite)));
            }
            if (wanted(only, "2")) {
                results.add(report(BrokerOutage.run(suite)));
            }
            if (wanted(only, "3")) {
                results.add(report(DatabaseRestart.run(suite)));
                results.add(report(DatabaseRestart.crash(suite)));
            }
            if (wanted(only, "4")) {
                ScaleOut.run(suite).forEach(result -> results.add(report(result)));
            }
            if (wanted(only, "5")) {
                results.add(report(ClusterFailover.run(suite)));
            }
            if (wanted(only, "6")) {
                results.add(report(PoisonMixedIn.run(suite)));
            }
        } finally {
            suite.stopAll();
        }

        Report report = new Report(LocalDate.now(), mode.name().toLowerCase(Locale.ROOT), publisher, Machine.describe(stack),
                results);
        Path out = Path.of(options.getOrDefault("out", "faults/results"));
        Files.createDirectories(out);
        String base = LocalDate.now() + "-" + mode.name().toLowerCase(Locale.ROOT) + (suite.cdc() ? "-cdc" : "");
        Files.writeString(out.resolve(base + ".md"), report.markdown());
        Files.writeString(out.resolve(base + ".json"), report.json());
        System.out.println();
        System.out.println(report.markdown());
        System.out.println("written: " + out.resolve(base + ".{md,json}"));
        System.exit(report.passed() ? 0 : 1);
    }

    private static Result report(Result result) {
        System.out.println((result.skipped() != null ? "SKIPPED, NOT KEPT " : result.passed() ? "kept    " : "NOT KEPT ")
                + result.scenario() + "  " + result.counts() + " " + result.violations());
        return result;
    }

    private static boolean wanted(List<String> only, String scenario) {
        return only.isEmpty() || only.contains(scenario);
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

    private FaultSuite() {
    }
}

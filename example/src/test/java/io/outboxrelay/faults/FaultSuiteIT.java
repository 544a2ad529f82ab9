package io.outboxrelay.faults;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault suite's documented command in its quick mode, {@code faults/run quick}: its own
 * PostgreSQL and three-node Kafka cluster, its own servers started, killed with SIGKILL and
 * restarted, Kafka and PostgreSQL stopped under load. Uses the WAR and Liberty installation this
 * build made. The counts must show nothing lost and every order applied once, in every scenario; and
 * again in CDC mode for the crash, the broker outage and the database's restart and crash.
 */
class FaultSuiteIT {

    /** The project's top folder, where faults/run and devstack/stack live. */
    private static final Path PROJECT = Path.of(System.getProperty("it.project.root", "..")).toAbsolutePath().normalize();

    private static final List<String> SCENARIOS = List.of("8 production profile", "1 server crash", "2 broker outage",
            "3 database restart", "3b database crash", "4a scale-out", "4b scale-out", "5 Kafka cluster", "6 poison mixed in");

    /** The scenarios CDC mode runs too: the crash, the broker outage, the database's restart and crash. */
    private static final List<String> CDC_SCENARIOS = List.of("1 server crash", "2 broker outage", "3 database restart",
            "3b database crash");

    @Test
    void nothingIsLostAndEveryOrderIsAppliedOnceUnderEveryFault() throws Exception {
        Path results = Path.of("target", "faults-quick");
        Run run = run("faults-stack", results, Path.of("target", "faults-quick.log"), Map.of());

        assertThat(run.finished()).as("faults/run quick finished; its output:\n" + tail(run.log())).isTrue();
        String json = table(results, "-quick.json", run);
        for (String scenario : SCENARIOS) {
            assertThat(json).as("the table has scenario " + scenario).contains("\"scenario\": \"" + scenario);
        }
        assertThat(numbers(json, "lost")).as("lost per order scenario").hasSize(8).containsOnly(0L);
        assertKept(json, run);
    }

    @Test
    void inCdcModeNothingIsLostAndEveryOrderIsAppliedOnceUnderCrashesAndOutages() throws Exception {
        Path results = Path.of("target", "faults-quick-cdc");
        Run run = run("faults-stack-cdc", results, Path.of("target", "faults-quick-cdc.log"),
                Map.of("FAULTS_PUBLISHER", "cdc", "FAULTS_ONLY", "1,2,3"));

        assertThat(run.finished()).as("FAULTS_PUBLISHER=cdc faults/run quick finished; its output:\n" + tail(run.log()))
                .isTrue();
        String json = table(results, "-quick-cdc.json", run);
        assertThat(json).contains("\"publisher\": \"cdc\"");
        for (String scenario : CDC_SCENARIOS) {
            assertThat(json).as("the table has scenario " + scenario).contains("\"scenario\": \"" + scenario);
        }
        assertThat(numbers(json, "lost")).as("lost per scenario").hasSize(CDC_SCENARIOS.size()).containsOnly(0L);
        assertKept(json, run);
    }

    private record Run(Process process, boolean finished, Path log) {
    }

    /** Runs {@code faults/run quick} with these settings on a fresh stack of its own, into an empty results folder. */
    private static Run run(String stackName, Path results, Path log, Map<String, String> settings) throws Exception {
        Path stack = Path.of("target", stackName).toAbsolutePath();
        freshStack(stack);
        deleteTree(results); // a table an earlier run left must not pass for this run's
        ProcessBuilder suite = new ProcessBuilder("faults/run", "quick").directory(PROJECT.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile().getAbsoluteFile());
        suite.environment().putAll(Map.of(
                "FAULTS_STACK", stack.toString(),
                "FAULTS_WLP", Path.of("target", "liberty", "wlp").toAbsolutePath().toString(),
                "FAULTS_WAR", Path.of("target", "outbox-relay.war").toAbsolutePath().toString(),
                "FAULTS_RESULTS", results.toAbsolutePath().toString()));
        suite.environment().putAll(settings);
        Process process = suite.start();
        boolean finished = process.waitFor(25, TimeUnit.MINUTES);
        if (!finished) {
            process.destroy();
            process.waitFor(2, TimeUnit.MINUTES);
        }
        return new Run(process, finished, log);
    }

    /** Every order scenario applied each order once, no promise was broken, and the suite said so. */
    private static void assertKept(String json, Run run) throws IOException {
        assertThat(numbers(json, "orders written")).as("orders written per scenario").allMatch(count -> count >= 1_000);
        assertThat(numbers(json, "inventory effect")).as("the inventory effect equals the orders, every scenario")
                .isEqualTo(numbers(json, "orders written"));
        assertThat(json).as("violations; the suite's output:\n" + tail(run.log())).doesNotContain("\"passed\": false");
        assertThat(run.process().exitValue()).isZero();
    }

    /** The run starts on a stack of its own: whatever an earlier run left is stopped and removed. */
    private static void freshStack(Path stack) throws IOException, InterruptedException {
        if (Files.exists(stack)) {
            new ProcessBuilder("devstack/stack", "down", "--dir", stack.toString()).directory(PROJECT.toFile()).inheritIO().start().waitFor(3, TimeUnit.MINUTES);
            deleteTree(stack);
        }
    }

    private static void deleteTree(Path folder) throws IOException {
        if (Files.exists(folder)) {
            try (Stream<Path> files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /**
     * The table the run wrote. A suite that stopped before writing it (a scenario that threw, a server that did not
     * start) fails here with its exit code and output, which say why, instead of an error about a missing file.
     */
    private static String table(Path results, String suffix, Run run) throws IOException {
        Optional<Path> table = latest(results, suffix);
        assertThat(table).as("the table of faults/run (exit code %d); its output:%n%s", run.process().exitValue(),
                tail(run.log())).isPresent();
        return Files.readString(table.get());
    }

    private static List<Long> numbers(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\": (\\d+)").matcher(json);
        return matcher.results().map(match -> Long.parseLong(match.group(1))).toList();
    }

    private static Optional<Path> latest(Path folder, String suffix) throws IOException {
        if (!Files.isDirectory(folder)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.getFileName().toString().endsWith(suffix))
                    .max(Comparator.comparing(file -> file.toFile().lastModified()));
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}

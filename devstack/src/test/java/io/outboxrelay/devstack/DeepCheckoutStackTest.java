package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The real {@code stack} script run from a checkout deep in the file system, where the Kafka JVM's class
 * path alone is longer than a memory page and the JDK therefore reports no arguments for it.
 */
class DeepCheckoutStackTest {

    /** The size of /proc/PID/cmdline beyond which the JDK on Linux reports no arguments. */
    private static final int PAGE = 4096;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Pattern STOPPED = Pattern.compile("stack: ([\\w-]+) (?:stopped|had exited) \\(pid (\\d+)\\)");

    private static DeepCheckout checkout;

    private Path stateDir;
    private Path outputDir;
    private final Set<Long> pidsSeen = new HashSet<>();

    @BeforeAll
    static void buildCheckout() throws IOException {
        checkout = DeepCheckout.build();
    }

    @BeforeEach
    void freshStateDirectory(TestInfo test) throws IOException {
        stateDir = checkout.root().resolve("target/state-" + test.getTestMethod().orElseThrow().getName());
        outputDir = checkout.root().resolve("target/output-" + test.getTestMethod().orElseThrow().getName());
        deleteRecursively(stateDir);
        Files.createDirectories(outputDir);
    }

    /**
     * A safety net for a failing test: kills what it started, never by name but by pid, taken from the
     * pid files, from the CLI's output and from command lines that name this test's own state directory.
     */
    @AfterEach
    void killLeftovers() throws Exception {
        for (String server : List.of("kafka", "postgres")) {
            readIdentity(server).flatMap(ProcessIdentity::find).ifPresent(process -> pidsSeen.add(process.pid()));
        }
        ProcessHandle.allProcesses().filter(this::mentionsStateDir).forEach(process -> pidsSeen.add(process.pid()));
        for (long pid : pidsSeen) {
            Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(this::mentionsStateDir);
            if (process.isPresent()) {
                process.get().destroyForcibly();
                process.get().onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
        deleteRecursively(stateDir);
    }

    @Test
    void upAndDownWorkFromACheckoutDeepInTheFileSystem() throws Exception {
        assertTrue(checkout.root().toString().length() >= 120, "the checkout path must be long: " + checkout.root());
        assertTrue(checkout.expandedClassPath().length() > PAGE,
                "the checkout must give Kafka a class path longer than a page, or this test proves nothing");
        int postgresPort = Ports.pickFree(Set.of());
        int kafkaPort = Ports.pickFree(Set.of(postgresPort));

        DeepCheckout.Result up = stack("up", "--dir", stateDir.toString(),
                "--pg-port", Integer.toString(postgresPort), "--kafka-port", Integer.toString(kafkaPort));

        assertEquals(0, up.exitCode(), up.output());
        assertTrue(up.output().contains("DB_PORT=" + postgresPort), up.output());
        assertTrue(up.output().contains("KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:" + kafkaPort), up.output());
        assertTrue(answers(postgresPort), "PostgreSQL answers on " + postgresPort);
        assertTrue(answers(kafkaPort), "Kafka answers on " + kafkaPort);
        ProcessHandle kafka = runningServer("kafka");
        ProcessHandle postgres = runningServer("postgres");
        // The class path went into an argument file, so the JDK can read this command line again.
        assertTrue(kafka.info().arguments().isPresent(), "the Kafka JVM's arguments are readable");
        assertTrue(kafka.info().commandLine().orElseThrow().length() < PAGE);
        DeepCheckout.Result status = stack("status", "--dir", stateDir.toString());
        assertTrue(status.output().contains("kafka: running, pid " + kafka.pid()), status.output());
        assertTrue(status.output().contains("postgres: running, pid " + postgres.pid()), status.output());

        DeepCheckout.Result down = stack("down", "--dir", stateDir.toString());

        assertEquals(0, down.exitCode(), down.output());
        assertTrue(down.output().contains("kafka stopped (pid " + kafka.pid() + ")"), down.output());
        assertTrue(down.output().contains("postgres stopped (pid " + postgres.pid() + ")"), down.output());
        awaitExit(kafka);
        awaitExit(postgres);
        awaitTrue("ports " + postgresPort + " and " + kafkaPort + " free again",
                () -> Ports.isFree(postgresPort) && Ports.isFree(kafkaPort));
    }

    @Test
    void aFailedUpStopsThePostgresAndTheKafkaItHadStarted() throws Exception {
        int postgresPort = Ports.pickFree(Set.of());
        int kafkaPort = Ports.pickFree(Set.of(postgresPort));
        try (ServerSocket taken = listenOnLoopback()) {
            // Kafka's controller port, stored by an earlier up and taken by another process since: the
            // port check before launching does not see it, so Kafka fails only after both servers started.
            StackState state = StackState.createOrLoad(stateDir);
            state.set("kafka.controller.port", Integer.toString(taken.getLocalPort()));
            state.save();

            DeepCheckout.Result up = stack("up", "--dir", stateDir.toString(),
                    "--pg-port", Integer.toString(postgresPort), "--kafka-port", Integer.toString(kafkaPort));

            assertNotEquals(0, up.exitCode(), up.output());
            assertTrue(up.output().contains("stack: kafka exited before it was ready; see "
                    + stateDir.resolve("kafka.log")), up.output());
            assertTrue(up.output().contains("stopped again what this call had started: kafka, postgres"), up.output());
            Map<String, Long> stopped = stoppedPids(up.output());
            assertEquals(Set.of("kafka", "postgres"), stopped.keySet(), up.output());
            for (long pid : stopped.values()) {
                awaitTrue("process " + pid + " gone", () -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty());
            }
            assertNoProcessMentionsStateDir();
            assertFalse(Files.exists(stateDir.resolve("kafka.pid")));
            assertFalse(Files.exists(stateDir.resolve("postgres.pid")));
            awaitTrue("ports " + postgresPort + " and " + kafkaPort + " free again",
                    () -> Ports.isFree(postgresPort) && Ports.isFree(kafkaPort));
        }
    }

    @Test
    void upRefusesATakenKafkaPortBeforeStartingAnything() throws Exception {
        int postgresPort = Ports.pickFree(Set.of());
        try (ServerSocket taken = listenOnLoopback()) {
            int kafkaPort = taken.getLocalPort();

            DeepCheckout.Result up = stack("up", "--dir", stateDir.toString(),
                    "--pg-port", Integer.toString(postgresPort), "--kafka-port", Integer.toString(kafkaPort));

            assertEquals(1, up.exitCode(), up.output());
            assertTrue(up.output().contains("port " + kafkaPort + " for kafka is in use by another process"), up.output());
            assertFalse(Files.exists(stateDir.resolve("postgres.pid")));
            assertFalse(Files.exists(stateDir.resolve("kafka.pid")));
            assertNoProcessMentionsStateDir();
            assertTrue(Ports.isFree(postgresPort));
        }
    }

    private DeepCheckout.Result stack(String... args) throws IOException, InterruptedException {
        DeepCheckout.Result result = checkout.stack(outputDir.resolve(args[0] + ".out"), args);
        Matcher pids = STOPPED.matcher(result.output());
        while (pids.find()) {
            pidsSeen.add(Long.parseLong(pids.group(2)));
        }
        return result;
    }

    private ProcessHandle runningServer(String name) throws IOException {
        ProcessHandle process = readIdentity(name).flatMap(ProcessIdentity::find)
                .orElseThrow(() -> new AssertionError(name + " is not running"));
        pidsSeen.add(process.pid());
        return process;
    }

    private Optional<ProcessIdentity> readIdentity(String name) throws IOException {
        Path pidFile = stateDir.resolve(name + ".pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        return ProcessIdentity.parse(Files.readString(pidFile, StandardCharsets.UTF_8))
                .filter(ProcessIdentity.Recorded.class::isInstance)
                .map(parsed -> ((ProcessIdentity.Recorded) parsed).identity());
    }

    private static Map<String, Long> stoppedPids(String output) {
        Matcher matcher = STOPPED.matcher(output);
        List<Map.Entry<String, Long>> entries = new ArrayList<>();
        while (matcher.find()) {
            entries.add(Map.entry(matcher.group(1), Long.parseLong(matcher.group(2))));
        }
        return entries.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private boolean mentionsStateDir(ProcessHandle process) {
        return process.isAlive()
                && process.info().commandLine().map(line -> line.contains(stateDir.toString())).orElse(false);
    }

    private void assertNoProcessMentionsStateDir() {
        List<ProcessHandle> left = ProcessHandle.allProcesses().filter(this::mentionsStateDir).toList();
        left.forEach(process -> pidsSeen.add(process.pid()));
        assertTrue(left.isEmpty(), "still running: " + left.stream()
                .map(process -> process.pid() + " " + process.info().commandLine().orElse("?"))
                .collect(Collectors.joining("; ")));
    }

    private static ServerSocket listenOnLoopback() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), 0));
        return socket;
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(Ports.LOOPBACK, port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void awaitExit(ProcessHandle process) throws Exception {
        try {
            process.onExit().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            fail("process " + process.pid() + " still runs " + WAIT.toSeconds() + " s after down");
        }
    }

    /** Polls {@code condition} until it holds, failing once {@link #WAIT} has passed. */
    private static void awaitTrue(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(WAIT);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                fail("not " + what + " within " + WAIT.toSeconds() + " s");
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}

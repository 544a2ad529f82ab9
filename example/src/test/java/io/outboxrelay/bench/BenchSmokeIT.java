package io.outboxrelay.bench;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Kafka;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The benchmark's documented command, {@code bench/run smoke}, against the test stack and server:
 * it drains a small backlog through every contender, each held back until its backlog is committed
 * (the server's relay by its instance lock), and writes its report. The figures of such
 * a tiny run mean nothing and are not looked at; that the harness works is the point.
 */
class BenchSmokeIT {

    private static final List<String> CONTENDERS = List.of("raw-kafka", "outbox-relay", "gruelbox", "debezium", "seeds-poller");

    @Test
    void theBenchmarkDrainsThroughEveryContenderAndWritesItsReport() throws Exception {
        Api.awaitReady(Duration.ofMinutes(3));
        Path results = Path.of("target", "bench-smoke");
        Path log = Path.of("target", "bench-smoke.log");
        ProcessBuilder bench = new ProcessBuilder("bench/run", "smoke").redirectErrorStream(true)
                .directory(Path.of(System.getProperty("it.project.root", "..")).toFile())
                .redirectOutput(log.toFile().getAbsoluteFile());
        bench.environment().putAll(Map.of(
                "BENCH_DB_URL", System.getProperty("it.db.url"),
                "BENCH_DB_USER", "outbox",
                "BENCH_DB_PASSWORD", "outbox",
                "BENCH_KAFKA", Kafka.BOOTSTRAP,
                "BENCH_SERVER", Api.BASE_URL,
                "BENCH_RESULTS", results.toAbsolutePath().toString()));
        Process process = bench.start();
        boolean finished = process.waitFor(10, TimeUnit.MINUTES);
        if (!finished) {
            process.destroyForcibly();
        }

        assertThat(finished && process.exitValue() == 0).as("bench/run smoke exits 0; its output:\n" + tail(log)).isTrue();
        Path report;
        try (Stream<Path> files = Files.list(results)) {
            report = files.filter(file -> file.getFileName().toString().endsWith("-smoke.json"))
                    .max(java.util.Comparator.comparing(file -> file.toFile().lastModified())).orElseThrow();
        }
        String json = Files.readString(report);
        CONTENDERS.forEach(name -> assertThat(json).contains("\"name\": \"" + name + "\"", "\"rows\": 200"));
        // and for each, when its writer's rows had committed: a drain that ends right after them kept up with its writer
        CONTENDERS.forEach(name -> assertThat(json).containsPattern("\"name\": \"" + name + "\"[^}]*\"committedSeconds\": \\[\\d+\\.\\d\\d"));
        // every database contender was held back while its backlog was committed, the server's relay included
        CONTENDERS.stream().filter(name -> !name.equals("raw-kafka")).forEach(name ->
                assertThat(json).containsPattern("\"name\": \"" + name + "\"[^}]*\"timing\": \"after-written\""));
        // and each first drained a fifth of its rows unmeasured, alike for all, which the report says
        assertThat(json).contains("Same warm-up:");
        CONTENDERS.forEach(name -> assertThat(json).contains(name + " 40"));
        assertThat(Files.readString(report.resolveSibling(report.getFileName().toString().replace(".json", ".svg"))))
                .startsWith("<svg");
    }

    private static String tail(Path log) throws java.io.IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}

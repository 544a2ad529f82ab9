package io.outboxrelay.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An Outbox Relay server this benchmark started itself ({@code ./run} on the benchmark's stack,
 * which the environment names), so it can stop it and start it again with other settings. Its
 * PID goes to a file, so {@code bench/run} can stop it even if this process dies.
 */
final class ServerProcess {

    private final Process run;
    private final long jvmPid;
    private final Path pidFile;

    private ServerProcess(Process run, long jvmPid, Path pidFile) {
        this.run = run;
        this.jvmPid = jvmPid;
        this.pidFile = pidFile;
    }

    /** Starts {@code ./run} with {@code settings} added to the environment and waits until it is ready. */
    static ServerProcess start(String serverUrl, Map<String, String> settings, Path log, Path pidFile) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("setsid", "./run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(settings);
        Files.writeString(log, "--- ./run with " + settings + System.lineSeparator(), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        Process run = builder.start();
        Files.writeString(pidFile, Long.toString(run.pid()));
        HttpClient http = Env.http();
        URI ready = URI.create(serverUrl + "/health/ready");
        Env.await("the Outbox Relay server at " + serverUrl + " to be ready (log: " + log + ")", Duration.ofMinutes(5),
                Duration.ofSeconds(1), () -> {
                    if (!run.isAlive()) {
                        throw new IllegalStateException("the server did not start; see " + log);
                    }
                    return ready(http, ready);
                });
        long jvm = run.toHandle().descendants()
                .filter(process -> process.info().commandLine().orElse("").contains("ws-server.jar"))
                .mapToLong(ProcessHandle::pid).findFirst().orElse(0);
        return new ServerProcess(run, jvm, pidFile);
    }

    private static boolean ready(HttpClient http, URI ready) {
        try {
            return http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The Liberty JVM's PID (0 when it could not be found), for its resident memory. */
    long jvmPid() {
        return jvmPid;
    }

    /** TERM to {@code ./run}, which stops the server; waits until the server's JVM is gone too. */
    void stop() throws Exception {
        Optional<ProcessHandle> jvm = ProcessHandle.of(jvmPid);
        run.destroy();
        if (!run.waitFor(3, TimeUnit.MINUTES)) {
            throw new IllegalStateException("./run (PID " + run.pid() + ") did not stop within 3 minutes");
        }
        jvm.ifPresent(process -> Env.await("the server JVM " + jvmPid + " to exit", Duration.ofMinutes(2),
                Duration.ofMillis(200), () -> !process.isAlive()));
        Files.deleteIfExists(pidFile);
    }
}

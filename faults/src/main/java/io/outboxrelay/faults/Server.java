package io.outboxrelay.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One Open Liberty server running the Outbox Relay WAR, owned by the suite: its own folder, ports and
 * log; started with {@code server run} (whose script execs the JVM, so the process is the server),
 * killed with SIGKILL or stopped with SIGTERM through that process handle only.
 */
final class Server {

    private final String name;
    private final Path wlp;
    private final Path userDir;
    private final int httpPort;
    private final Map<String, String> env;
    private volatile Process process;
    private volatile boolean serving;

    private Server(String name, Path wlp, Path userDir, int httpPort, Map<String, String> env) {
        this.name = name;
        this.wlp = wlp;
        this.userDir = userDir;
        this.httpPort = httpPort;
        this.env = env;
    }

    /**
     * Lays out a server folder: the example's server.xml with its fragments, the WAR, the JDBC driver, and the
     * environment (connection settings, local users, the given settings) in server.env.
     */
    static Server create(String name, Installation installation, Map<String, String> stackEnv,
                         Map<String, String> settings, List<String> jvmOptions) throws IOException {
        Path dir = installation.userDir().resolve("servers").resolve(name);
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Files.createDirectories(dir.resolve("apps"));
        Files.createDirectories(dir.resolve("jdbc"));
        // server.xml and the files it includes from its folder (the core's and the console's fragments)
        try (var configs = Files.list(installation.serverXml().getParent())) {
            for (Path config : configs.filter(file -> file.getFileName().toString().endsWith(".xml")).toList()) {
                Files.copy(config, dir.resolve(config.getFileName()));
            }
        }
        Files.copy(installation.war(), dir.resolve("apps/outbox-relay.war"));
        Files.copy(installation.jdbcDriver(), dir.resolve("jdbc/postgresql.jar"), StandardCopyOption.REPLACE_EXISTING);

        int httpPort = freePort();
        Map<String, String> env = new LinkedHashMap<>(stackEnv);
        env.put("HTTP_PORT", String.valueOf(httpPort));
        env.put("HTTPS_PORT", String.valueOf(freePort()));
        env.put("LOCAL_USERS_FILE", installation.localUsers().toString());
        env.put("LOCAL_OPERATOR_PASSWORD", Installation.OPERATOR_PASSWORD);
        env.put("LOCAL_VIEWER_PASSWORD", "faults-viewer-" + Long.toHexString(System.nanoTime()));
        env.putAll(settings);
        Files.writeString(dir.resolve("server.env"), env.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining("\n", "", "\n")));
        Files.write(dir.resolve("jvm.options"), jvmOptions);
        return new Server(name, installation.wlp(), installation.userDir(), httpPort, env);
    }

    String name() {
        return name;
    }

    String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    long pid() {
        return process == null ? -1 : process.pid();
    }

    /** Whether writers should send to it: false from the moment it is killed until it is ready again. */
    boolean serving() {
        return serving;
    }

    Path messagesLog() {
        return userDir.resolve("servers").resolve(name).resolve("logs/messages.log");
    }

    void start() throws IOException {
        ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", name)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(userDir.resolve(name + ".console.log").toFile()));
        builder.environment().put("WLP_USER_DIR", userDir.toString());
        process = builder.start();
    }

    /** Starts and waits until {@code /health/ready} answers UP. */
    void startAndAwaitReady(Duration patience) throws IOException {
        start();
        awaitReady(patience);
    }

    void awaitReady(Duration patience) {
        awaitHealthy("/health/ready", patience);
        serving = true;
    }

    /** Waits until the health check at {@code path} answers 200. */
    void awaitHealthy(String path, Duration patience) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        Waits.until(name + " to answer 200 at " + path, patience, Duration.ofMillis(250), () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + messagesLog());
            }
            return status(http, path) == 200;
        });
    }

    /** The HTTP status of a GET, or -1 when nothing answers within 5 s. */
    int status(HttpClient http, String path) {
        return status(http, path, Duration.ofSeconds(5));
    }

    /** The HTTP status of a GET, or -1 when nothing answers within {@code patience}. */
    int status(HttpClient http, String path, Duration patience) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url() + path)).timeout(patience).build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException unreachable) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Events this server's relay has published since it started ({@code outbox_publish_results_total{result="sent"}}). */
    long publishedSinceStart(HttpClient http) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url() + "/outbox/prometheus")).timeout(Duration.ofSeconds(10)).build();
        String scrape = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        return scrape.lines()
                .filter(line -> line.startsWith("outbox_publish_results_total{") && line.contains("result=\"sent\""))
                .mapToLong(line -> (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** Freezes the server's JVM (SIGSTOP): it runs nothing, its leases stay as they are, until {@link #resume}. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** A crash: SIGKILL to the server's JVM, nothing gets to run a shutdown hook. */
    void kill() throws InterruptedException {
        serving = false;
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL");
        }
    }

    /** A normal stop: SIGTERM, then SIGKILL if it is still there after a minute. */
    void stop() throws InterruptedException {
        serving = false;
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka Connect worker in standalone mode, as a process of its own: the connect module's plugin path (Debezium's
 * PostgreSQL connector and the Outbox Relay plugin, each in its folder) and the documented connector configuration
 * file, unchanged. The database it streams from reaches the configuration through environment variables, as the
 * file's {@code ${env:...}} placeholders expect. Stopped through its process handle.
 */
final class ConnectWorker implements AutoCloseable {

    private static final Path MODULE = Path.of(System.getProperty("it.project.root", "..")).resolve("connect")
            .toAbsolutePath().normalize();
    static final Path CONNECTOR_CONFIG = MODULE.resolve("outbox-relay-connector.json");

    private final Process process;
    private final Path log;

    private ConnectWorker(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts a worker that runs the documented connector against {@code database}; {@code dir} keeps its offsets. */
    static ConnectWorker start(Path dir, String database) throws IOException {
        Files.createDirectories(dir);
        Path worker = dir.resolve("worker.properties");
        Files.writeString(worker, String.join("\n",
                "bootstrap.servers=" + Kafka.BOOTSTRAP,
                "key.converter=org.apache.kafka.connect.storage.StringConverter",
                "value.converter=org.apache.kafka.connect.storage.StringConverter",
                "offset.storage.file.filename=" + dir.resolve("offsets"),
                "offset.flush.interval.ms=1000",
                "plugin.path=" + MODULE.resolve("target/connect-plugins"),
                "listeners=http://127.0.0.1:" + freePort(),
                "config.providers=env",
                "config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider") + "\n");
        // the class path in an argument file, so the command line stays short however deep the checkout lies
        Path arguments = dir.resolve("classpath.args");
        Files.writeString(arguments, "-cp\n" + Files.readString(MODULE.resolve("target/connect-worker.classpath")).trim() + "\n");
        Path log = dir.resolve("worker.log");
        ProcessBuilder builder = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "@" + arguments,
                "org.apache.kafka.connect.cli.ConnectStandalone", worker.toString(), CONNECTOR_CONFIG.toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        String url = System.getProperty("it.db.url"); // jdbc:postgresql://127.0.0.1:PORT/outbox
        String hostAndPort = url.substring("jdbc:postgresql://".length(), url.lastIndexOf('/'));
        builder.environment().putAll(Map.of(
                "OUTBOX_DB_HOST", hostAndPort.substring(0, hostAndPort.lastIndexOf(':')),
                "OUTBOX_DB_PORT", hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1),
                "OUTBOX_DB_NAME", database,
                "OUTBOX_DB_USER", "outbox",
                "OUTBOX_DB_PASSWORD", "outbox"));
        return new ConnectWorker(builder.start(), log);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The worker's log, for a failure message. */
    String log() {
        try {
            String text = Files.readString(log);
            return text.length() > 20_000 ? text.substring(text.length() - 20_000) : text;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: the worker stops its connector and flushes its offsets
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

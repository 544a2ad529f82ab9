package io.outboxrelay.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The local stack the build started for the integration tests, driven through its own script, so a
 * test can take Kafka away from the running server and give it back (same port, same data).
 */
public final class DevStack {

    private static final Path SCRIPT = Path.of(System.getProperty("it.project.root", "..")).toAbsolutePath().normalize().resolve("devstack/stack");
    private static final Path DIR = Path.of(System.getProperty("it.devstack.dir", "target/devstack"));

    private DevStack() {
    }

    /** Stops the Kafka broker; its port closes, its data stays. */
    public static void stopKafka() {
        run("stop-kafka");
    }

    /** Starts the Kafka broker again (or leaves it running) and waits until it serves. */
    public static void startKafka() {
        run("start-kafka");
    }

    /** Stops PostgreSQL; its port closes, its data stays. */
    public static void stopPostgres() {
        run("stop-postgres");
    }

    /** Starts PostgreSQL again (or leaves it running) and waits until it answers. */
    public static void startPostgres() {
        run("start-postgres");
    }

    private static void run(String command) {
        // Written to a file, not to this JVM's stdout, which the build's test runner uses as its channel.
        Path log = DIR.resolve("it-" + command + ".log");
        try {
            Process process = new ProcessBuilder(List.of(SCRIPT.toString(), command, "--dir", DIR.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("stack " + command + " did not finish within 5 minutes; see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("stack " + command + " failed with exit code " + process.exitValue()
                        + ":\n" + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + SCRIPT + " " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running stack " + command, e);
        }
    }
}

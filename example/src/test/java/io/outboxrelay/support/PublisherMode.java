package io.outboxrelay.support;

import org.awaitility.Awaitility;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The publisher mode the shared test server runs in. The build runs the end-to-end tests twice on one server,
 * PostgreSQL and Kafka: first as the server starts (polling), then with {@code it.publisher=cdc}, for which this
 * listener restarts the server in CDC mode before any test runs and waits until its replication slot streams.
 * So both modes pass the same tests; a test that checks a mechanism only one mode has asks {@link #cdc()}.
 */
public class PublisherMode implements LauncherSessionListener {

    private static final String MODE = System.getProperty("it.publisher", "polling");

    /**
     * CDC mode as the shared server runs it: its Debezium stream publishes what is appended; what the stream
     * does not publish (retries, replays) is the safety net's after the handover, shortened here as the server's
     * retry and outage timings are, so failure paths finish within a test's patience.
     */
    private static final List<String> CDC_SETTINGS = List.of(
            "-Doutbox.publisher=cdc",
            "-Doutbox.cdc.handover-ms=1000",
            "-Doutbox.cdc.poll-interval-ms=500");

    private Path options;
    private String originalOptions;

    /** Whether the shared server publishes in CDC mode in this test run. */
    public static boolean cdc() {
        return "cdc".equals(MODE);
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (!cdc()) {
            return;
        }
        String name = System.getProperty("it.server.name");
        options = LibertyServer.directory(name).resolve("jvm.options");
        try {
            originalOptions = Files.readString(options, StandardCharsets.UTF_8);
            Files.writeString(options, originalOptions + (originalOptions.endsWith("\n") ? "" : "\n")
                    + String.join("\n", CDC_SETTINGS) + "\n", StandardCharsets.UTF_8);
            LibertyServer.run("stop", name);
            LibertyServer.run("start", name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart the test server in CDC mode", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        Api.awaitReady(Duration.ofMinutes(3));
        Awaitility.await("the test server's CDC stream to read its replication slot")
                .atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                .until(() -> Database.count("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'outbox_relay'"
                        + " AND active") == 1);
    }

    /** The server keeps running in CDC mode until the build stops it; a later start gets its own settings back. */
    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (options == null) {
            return;
        }
        try {
            Files.writeString(options, originalOptions, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.outboxrelay.faults;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Asks one of a server's health checks four times a second and remembers whether it ever said DOWN (503). */
final class HealthWatch implements AutoCloseable {

    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
    private volatile boolean sawDown;
    private volatile long firstDownNanos;

    private HealthWatch(Suite suite, Server server, String path, long since) {
        poller.scheduleWithFixedDelay(() -> {
            if (server.status(suite.http, path) == 503 && !sawDown) {
                firstDownNanos = System.nanoTime() - since;
                sawDown = true;
            }
        }, 0, 250, TimeUnit.MILLISECONDS);
    }

    /** Watches {@code path}, e.g. {@code /health/ready} or {@code /outbox/health/kafka}. */
    static HealthWatch start(Suite suite, Server server, String path) {
        return new HealthWatch(suite, server, path, System.nanoTime());
    }

    boolean sawDown() {
        return sawDown;
    }

    /** Seconds from the start of the watch until the check first said DOWN. */
    double secondsToDown() {
        return firstDownNanos / 1e9;
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}

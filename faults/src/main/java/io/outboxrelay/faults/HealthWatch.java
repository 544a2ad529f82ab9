package io.outboxrelay.faults;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Asks one of a server's health checks four times a second (waiting up to 10 s for each answer: a check that
 * waits for a timeout of its own answers late) and remembers whether it ever said DOWN (503), and what it said.
 */
final class HealthWatch implements AutoCloseable {

    private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
    private volatile boolean sawDown;
    private volatile long firstDownNanos;
    private final Map<Integer, Integer> answers = new ConcurrentSkipListMap<>();

    private HealthWatch(Suite suite, Server server, String path, long since) {
        poller.scheduleWithFixedDelay(() -> {
            int status = server.status(suite.http, path, Duration.ofSeconds(10));
            answers.merge(status, 1, Integer::sum);
            if (status == 503 && !sawDown) {
                firstDownNanos = System.nanoTime() - since;
                sawDown = true;
            }
        }, 0, 250, TimeUnit.MILLISECONDS);
    }

    /** How often the check answered with each status (-1: no answer within 10 s). */
    String answers() {
        return answers.toString();
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

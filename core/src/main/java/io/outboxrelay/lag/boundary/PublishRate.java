package io.outboxrelay.lag.boundary;

import io.outboxrelay.relay.entity.RoundReport;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Clock;

/** Events this server published per second, averaged over the last minute. */
@ApplicationScoped
public class PublishRate {

    private static final int WINDOW_SECONDS = 60;

    @Inject
    @OutboxClock
    Clock clock;

    private final long[] counts = new long[WINDOW_SECONDS];
    private final long[] seconds = new long[WINDOW_SECONDS];

    void onRound(@Observes RoundReport round) {
        long second = clock.millis() / 1000;
        int slot = (int) (second % WINDOW_SECONDS);
        synchronized (this) {
            if (seconds[slot] != second) {
                seconds[slot] = second;
                counts[slot] = 0;
            }
            counts[slot] += round.sent();
        }
    }

    public synchronized double perSecond() {
        long now = clock.millis() / 1000;
        long total = 0;
        for (int slot = 0; slot < WINDOW_SECONDS; slot++) {
            if (now - seconds[slot] < WINDOW_SECONDS) {
                total += counts[slot];
            }
        }
        return total / (double) WINDOW_SECONDS;
    }
}

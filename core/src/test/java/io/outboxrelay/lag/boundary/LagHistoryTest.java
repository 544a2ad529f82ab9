package io.outboxrelay.lag.boundary;

import io.outboxrelay.lag.entity.LagSample;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LagHistoryTest {

    private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void itKeepsTheLastHourOldestFirstAndForgetsWhatFallsOutOfIt() {
        LagHistory history = history(START);
        for (int minute = 0; minute <= 90; minute += 10) {
            history.clock = Clock.fixed(START.plus(Duration.ofMinutes(minute)), ZoneOffset.UTC);
            history.record(sample(minute));
        }

        assertThat(history.samples()).extracting(sample -> (int) sample.oldestPendingAgeSeconds())
                .as("at 11:30 the hour back reaches 10:30").containsExactly(30, 40, 50, 60, 70, 80, 90);

        history.clock = Clock.fixed(START.plus(Duration.ofMinutes(145)), ZoneOffset.UTC);
        assertThat(history.samples()).extracting(sample -> (int) sample.oldestPendingAgeSeconds())
                .as("reading forgets too, without a new sample").containsExactly(90);
    }

    private static LagHistory history(Instant now) {
        LagHistory history = new LagHistory();
        history.clock = Clock.fixed(now, ZoneOffset.UTC);
        history.historyMinutes = 60;
        return history;
    }

    /** A sample taken {@code minute} minutes after the start, its age the minute (to tell them apart). */
    private static LagSample sample(int minute) {
        return new LagSample(START.plus(Duration.ofMinutes(minute)), minute, 0, Map.of());
    }
}

package io.outboxrelay.lag.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

class OutboxBacklogTest {

    @Test
    void leasedEventsAreShownInFlightAndNotAlsoPending() {
        assertThat(OutboxBacklog.rowsByStatus(1_500, 500, 3, 1, 42))
                .containsOnly(entry("PENDING", 1_000L), entry("IN_FLIGHT", 500L), entry("DLT", 3L), entry("DEAD", 1L),
                        entry("SENT", 42L));
    }

    @Test
    void statesWithoutEventsAreLeftOutButSentIsAlwaysShown() {
        assertThat(OutboxBacklog.rowsByStatus(0, 0, 0, 0, 0)).containsOnly(entry("SENT", 0L));
    }

    @Test
    void aQueueWhoseEventsAreAllLeasedStillShowsPendingAsZero() {
        assertThat(OutboxBacklog.rowsByStatus(500, 500, 0, 0, 10))
                .containsOnly(entry("PENDING", 0L), entry("IN_FLIGHT", 500L), entry("SENT", 10L));
    }
}

package io.outboxrelay.relay.control;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class SendWindowTest {

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

    @Test
    void recordsMayBeHandedOverOnlyWhileTheyCanStillLandWithinTheLease() {
        // lease 60 s; a record can take 5 s (max.block.ms) + 25 s (delivery.timeout.ms) to land
        SendWindow window = SendWindow.opening(nanos.get(), Duration.ofSeconds(60), Duration.ofSeconds(30), nanos::get);

        assertThat(window.open()).isTrue();
        nanos.addAndGet(Duration.ofSeconds(28).toNanos());
        assertThat(window.open()).as("28 s in: lands by 58 s at the latest").isTrue();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(window.open()).as("29 s in: could land after 59 s, inside the last second's safety margin").isFalse();
    }

    @Test
    void aLeaseNoLongerThanTheProducersTimeoutsLeavesNoWindowAtAll() {
        assertThat(SendWindow.width(Duration.ofSeconds(60), Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(29));
        assertThat(SendWindow.width(Duration.ofSeconds(15), Duration.ofSeconds(14))).isEqualTo(Duration.ZERO);
        assertThat(SendWindow.width(Duration.ofSeconds(10), Duration.ofSeconds(30))).isNegative();
        assertThat(SendWindow.opening(nanos.get(), Duration.ofSeconds(10), Duration.ofSeconds(30), nanos::get).open()).isFalse();
    }

    @Test
    void theWindowSurvivesTheNanoClockWrappingAround() {
        nanos.set(Long.MAX_VALUE - 1_000);
        SendWindow window = SendWindow.opening(nanos.get(), Duration.ofSeconds(60), Duration.ofSeconds(30), nanos::get);

        nanos.addAndGet(Duration.ofSeconds(10).toNanos()); // overflows into negative values
        assertThat(window.open()).isTrue();
        nanos.addAndGet(Duration.ofSeconds(20).toNanos());
        assertThat(window.open()).isFalse();
    }
}

package io.outboxrelay.time;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackoffTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
    private final Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), 0.2);

    @Test
    void eachRetryWaitsTwiceAsLongAsTheOneBefore() {
        assertThat(backoff.delay(1, () -> 0.5)).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.delay(2, () -> 0.5)).isEqualTo(Duration.ofSeconds(2));
        assertThat(backoff.delay(5, () -> 0.5)).isEqualTo(Duration.ofSeconds(16));
    }

    @Test
    void theWaitNeverExceedsTheCapEvenAfterManyAttempts() {
        assertThat(backoff.delay(10, () -> 0.5)).isEqualTo(Duration.ofMinutes(5)); // 1 s * 2^9 = 512 s
        assertThat(backoff.delay(1_000, () -> 1.0)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void jitterSpreadsTheWaitWithinTheConfiguredFraction() {
        assertThat(backoff.delay(3, () -> 0.0)).isEqualTo(Duration.ofMillis(3_200));
        assertThat(backoff.delay(3, () -> 1.0)).isEqualTo(Duration.ofMillis(4_800));
    }

    @Test
    void theNextAttemptIsNowPlusTheDelay() {
        assertThat(backoff.next(2, CLOCK.instant(), () -> 0.5)).isEqualTo(Instant.parse("2026-11-30T10:00:02Z"));
    }

    @Test
    void nonsensicalSettingsAreRefused() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(1), 0.1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(10), 1.5))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.PoisonRecordException;
import io.outboxrelay.time.Backoff;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class RetryingTest {

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
    private final List<Duration> waits = new ArrayList<>();
    private final Retrying retrying = new Retrying(4, new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 0),
            clock, waits::add);
    private final AtomicInteger effects = new AtomicInteger();

    @Test
    void workThatFailsTwiceThenPassesHasOneEffectAndReportsTheFailedAttempts() throws Exception {
        AtomicInteger calls = new AtomicInteger();

        Retrying.Result result = retrying.run(() -> {
            if (calls.incrementAndGet() <= 2) {
                throw new IllegalStateException("database busy");
            }
            effects.incrementAndGet();
        });

        assertThat(result.passed()).isTrue();
        assertThat(result.attempts()).isEqualTo(2);
        assertThat(result.lastErrorOrNone()).contains("database busy");
        assertThat(effects).hasValue(1);
        assertThat(waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void workThatAlwaysFailsStopsAfterTheLastAttemptWithWhenAndWhy() throws Exception {
        Retrying.Result result = retrying.run(() -> {
            throw new IllegalStateException("constraint violated");
        });

        assertThat(result.passed()).isFalse();
        assertThat(result.attempts()).isEqualTo(4);
        assertThat(result.lastError()).hasMessage("constraint violated");
        assertThat(result.firstFailure()).isEqualTo(clock.instant());
        assertThat(result.lastFailure()).isEqualTo(clock.instant());
        assertThat(waits).hasSize(3);
    }

    @Test
    void anOutageSpendsNoAttemptsHoweverLongItLasts() throws Exception {
        Retrying patient = new Retrying(4, new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 0), clock,
                waits::add, failure -> failure.getMessage().startsWith("database down"));
        AtomicInteger calls = new AtomicInteger();

        Retrying.Result result = patient.run(() -> {
            int call = calls.incrementAndGet();
            if (call <= 10) {
                throw new IllegalStateException("database down, call " + call);
            }
            if (call == 11) {
                throw new IllegalStateException("constraint violated");
            }
            effects.incrementAndGet();
        });

        assertThat(result.passed()).isTrue();
        assertThat(result.attempts()).as("only the one real failure counts").isEqualTo(1);
        assertThat(effects).hasValue(1);
        assertThat(waits).hasSize(11);
        assertThat(waits.subList(4, 10)).as("the outage's waits are capped").containsOnly(Duration.ofSeconds(1));
    }

    @Test
    void aPoisonRecordIsNotRetried() throws Exception {
        Retrying.Result result = retrying.run(() -> {
            throw new PoisonRecordException("no event id");
        });

        assertThat(result.passed()).isFalse();
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(waits).isEmpty();
    }
}

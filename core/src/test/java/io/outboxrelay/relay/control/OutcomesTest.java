package io.outboxrelay.relay.control;

import io.outboxrelay.relay.control.Outcomes.DeadLetterDecision;
import io.outboxrelay.relay.control.Outcomes.Decision;
import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.relay.entity.PublishResult.Acked;
import io.outboxrelay.relay.entity.PublishResult.Failed;
import io.outboxrelay.time.Backoff;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Every state transition of a published-or-not event, with a fixed clock and no Kafka. */
class OutcomesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
    private final Outcomes outcomes = new Outcomes(4, new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1), 0));
    private final AtomicInteger probes = new AtomicInteger();

    @Test
    void anAckedEventIsSentWithWhereItLanded() {
        Decision decision = decide(event(1, 0), new Acked(2, 42), true);

        assertThat(decision.sent()).containsExactly(new Outcomes.Sent(1, 2, 42));
        assertThat(decision.outage()).isFalse();
        assertThat(probes).hasValue(0);
    }

    @Test
    void aRetryableFailureSpendsAnAttemptAndWaitsTheBackoff() {
        Decision decision = decide(event(1, 2), new Failed(new UnknownTopicOrPartitionException("no such topic")), true);

        assertThat(decision.retries()).singleElement().satisfies(retry -> {
            assertThat(retry.nextAttemptAt()).isEqualTo(CLOCK.instant().plusSeconds(4)); // third attempt: 1 s * 2^2
            assertThat(retry.error()).contains("UnknownTopicOrPartitionException", "no such topic");
        });
        assertThat(decision.deadLetters()).isEmpty();
    }

    @Test
    void theLastAllowedAttemptGoesToTheDeadLetterTopic() {
        Decision decision = decide(event(1, 3), new Failed(new UnknownTopicOrPartitionException("gone")), true);

        assertThat(decision.retries()).isEmpty();
        assertThat(decision.deadLetters()).singleElement().satisfies(letter -> assertThat(letter.attempts()).isEqualTo(4));
    }

    @Test
    void errorsThatCanNeverPassSkipTheRetries() {
        for (Exception poison : List.of(new RecordTooLargeException("too big"),
                new TopicAuthorizationException(Set.of("secret")))) {
            Decision decision = decide(event(1, 0), new Failed(new ExecutionException(poison)), true);

            assertThat(decision.deadLetters()).as(poison.toString()).singleElement()
                    .satisfies(letter -> {
                        assertThat(letter.error()).isSameAs(poison);
                        assertThat(letter.attempts()).isEqualTo(1);
                    });
        }
    }

    @Test
    void aTimeoutWhileTheClusterIsDownReleasesTheEventWithoutSpendingAnAttempt() {
        Decision decision = decide(event(1, 3), new Failed(new TimeoutException("expired")), false);

        assertThat(decision.released()).containsExactly(1L);
        assertThat(decision.outage()).isTrue();
        assertThat(decision.retries()).isEmpty();
        assertThat(decision.deadLetters()).isEmpty();
    }

    @Test
    void aTimeoutWhileTheClusterAnswersIsTheEventsOwnProblem() {
        Decision decision = decide(event(1, 0), new Failed(new TimeoutException("Topic t not present in metadata")), true);

        assertThat(decision.retries()).hasSize(1);
        assertThat(decision.outage()).isFalse();
    }

    @Test
    void theClusterIsProbedOnceForAWholeBatchOfTimeouts() {
        List<ClaimedEvent> batch = List.of(event(1, 0), event(2, 0), event(3, 0));
        Failed timeout = new Failed(new TimeoutException("expired"));

        Decision decision = outcomes.decide(batch, Map.of(1L, timeout, 2L, timeout, 3L, new Acked(0, 7)),
                CLOCK.instant(), this::down, () -> 0.5);

        assertThat(probes).hasValue(1);
        assertThat(decision.released()).containsExactly(1L, 2L);
        assertThat(decision.sent()).extracting(Outcomes.Sent::id).containsExactly(3L);
    }

    @Test
    void eventsNotSentBecauseTheLeaseRanShortGoBackWithoutSpendingAnAttemptOrSignallingAnOutage() {
        List<ClaimedEvent> batch = List.of(event(1, 9), event(2, 0));
        PublishResult.NotSent notSent = new PublishResult.NotSent("lease running out");

        Decision decision = outcomes.decide(batch, Map.of(1L, notSent, 2L, new Acked(0, 8)), CLOCK.instant(), this::down,
                () -> 0.5);

        assertThat(decision.unsent()).containsExactly(1L);
        assertThat(decision.retries()).isEmpty();
        assertThat(decision.deadLetters()).as("even on its last attempt it is not dead-lettered").isEmpty();
        assertThat(decision.outage()).isFalse();
        assertThat(probes).as("Kafka was not asked about a record it never saw").hasValue(0);
    }

    @Test
    void aDeadLetterTheTopicTookEndsDltWithTheEventsOwnError() {
        DeadLetterDecision decision = afterDeadLetter(letter(event(1, 0), 1), new Acked(0, 3), true);

        assertThat(decision.failures()).containsExactly(new RelayStore.Failure(1, "DLT", 1,
                "org.apache.kafka.common.errors.RecordTooLargeException: too big"));
        assertThat(probes).hasValue(0);
    }

    @Test
    void aDeadLetterTopicStillBeingCreatedIsTriedAgainLaterNotDead() {
        DeadLetterDecision decision = afterDeadLetter(letter(event(1, 0), 1),
                new Failed(new TimeoutException("Topic order.events.DLT not present in metadata after 2000 ms.")), true);

        assertThat(decision.failures()).as("not DEAD").isEmpty();
        assertThat(decision.retries()).singleElement().satisfies(retry -> {
            assertThat(retry.nextAttemptAt()).isEqualTo(CLOCK.instant().plusSeconds(1));
            assertThat(retry.error()).contains("RecordTooLargeException: too big",
                    "dead-letter topic order.events.DLT did not take it yet", "not present in metadata");
        });
    }

    @Test
    void anEventWithNoAttemptsLeftHasThreeMoreTriesOfItsDeadLetterThenIsDead() {
        Failed notThere = new Failed(new UnknownTopicOrPartitionException("order.events.DLT"));

        assertThat(afterDeadLetter(letter(event(1, 5), 6), notThere, true).retries()).hasSize(1);
        assertThat(afterDeadLetter(letter(event(1, 6), 7), notThere, true).failures())
                .singleElement().satisfies(failure -> {
                    assertThat(failure.status()).isEqualTo("DEAD");
                    assertThat(failure.attempts()).isEqualTo(7);
                    assertThat(failure.error()).contains("too big", "order.events.DLT failed too");
                });
    }

    @Test
    void aDeadLetterTheTopicRefusesForGoodIsDeadAtOnce() {
        DeadLetterDecision decision = afterDeadLetter(letter(event(1, 0), 1),
                new Failed(new ExecutionException(new RecordTooLargeException("too big for the DLT too"))), true);

        assertThat(decision.retries()).isEmpty();
        assertThat(decision.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.status()).isEqualTo("DEAD");
            assertThat(failure.error()).contains("too big for the DLT too");
        });
    }

    @Test
    void aDeadLetterTimingOutWhileTheClusterIsDownGoesBackUntouched() {
        DeadLetterDecision decision = afterDeadLetter(letter(event(1, 3), 4), new Failed(new TimeoutException("expired")),
                false);

        assertThat(decision.released()).containsExactly(1L);
        assertThat(decision.failures()).isEmpty();
        assertThat(decision.retries()).isEmpty();
    }

    @Test
    void aDeadLetterNeverSentGoesBackWithoutAskingTheCluster() {
        DeadLetterDecision decision = afterDeadLetter(letter(event(1, 3), 4), new PublishResult.NotSent("lease"), true);

        assertThat(decision.released()).containsExactly(1L);
        assertThat(probes).hasValue(0);
    }

    private DeadLetterDecision afterDeadLetter(Outcomes.DeadLetter letter, PublishResult result, boolean clusterUp) {
        return outcomes.afterDeadLetters(List.of(letter), Map.of(letter.event().id(), result), CLOCK.instant(),
                clusterUp ? this::up : this::down, () -> 0.5);
    }

    private static Outcomes.DeadLetter letter(ClaimedEvent event, int attempts) {
        return new Outcomes.DeadLetter(event, new RecordTooLargeException("too big"), attempts);
    }

    private Decision decide(ClaimedEvent event, PublishResult result, boolean clusterUp) {
        return outcomes.decide(List.of(event), Map.of(event.id(), result), CLOCK.instant(),
                clusterUp ? this::up : this::down, () -> 0.5);
    }

    private boolean up() {
        probes.incrementAndGet();
        return true;
    }

    private boolean down() {
        probes.incrementAndGet();
        return false;
    }

    static ClaimedEvent event(long id, int attempts) {
        return new ClaimedEvent(id, UUID.randomUUID(), "Order", "order-" + id, "OrderCreated", 1, "order.events",
                "{\"n\":" + id + "}", Map.of("correlation-id", "c-" + id), attempts,
                OffsetDateTime.now(CLOCK), null);
    }
}

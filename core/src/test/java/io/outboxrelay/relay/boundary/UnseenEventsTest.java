package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayStore.Landed;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class UnseenEventsTest {

    private static final Instant T0 = Instant.parse("2026-12-02T20:00:00Z");
    private final UnseenEvents unseen = new UnseenEvents(Duration.ofSeconds(3), 2);

    @Test
    void aRecordWhoseEventWasNotVisibleIsMarkedAgainUntilItIsSeen() {
        Landed early = landed();
        Landed seen = landed();

        assertThat(unseen.afterMark(List.of(early, seen), Set.of(early.eventId()), T0)).isZero();
        assertThat(unseen.held()).containsExactly(early);

        assertThat(unseen.afterMark(List.of(), Set.of(), T0.plusMillis(20))).isZero();
        assertThat(unseen.isEmpty()).as("seen at the second mark").isTrue();
    }

    @Test
    void aRecordOfAnEventThisOutboxNeverHasIsGivenUpAfterThePatience() {
        Landed foreign = landed();
        unseen.afterMark(List.of(foreign), Set.of(foreign.eventId()), T0);

        assertThat(unseen.afterMark(List.of(), Set.of(foreign.eventId()), T0.plusSeconds(2))).isZero();
        assertThat(unseen.held()).containsExactly(foreign);
        assertThat(unseen.afterMark(List.of(), Set.of(foreign.eventId()), T0.plusSeconds(3))).isEqualTo(1);
        assertThat(unseen.isEmpty()).isTrue();
    }

    @Test
    void beyondItsCapacityTheOldestAreGivenUpFirst() {
        Landed first = landed();
        Landed second = landed();
        Landed third = landed();
        unseen.afterMark(List.of(first, second), Set.of(first.eventId(), second.eventId()), T0);

        assertThat(unseen.afterMark(List.of(third), Set.of(first.eventId(), second.eventId(), third.eventId()),
                T0.plusMillis(10))).isEqualTo(1);
        assertThat(unseen.held()).containsExactly(second, third);
    }

    private static Landed landed() {
        return new Landed(UUID.randomUUID(), 0, 0L, T0);
    }
}

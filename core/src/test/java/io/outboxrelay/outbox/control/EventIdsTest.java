package io.outboxrelay.outbox.control;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventIdsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:15:30.123Z");

    @Test
    void idsAreVersion7WithTheRfcVariantAndCarryTheClocksMillisecond() {
        UUID id = new EventIds(Clock.fixed(NOW, ZoneOffset.UTC)).next();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(EventIds.unixMillisOf(id)).isEqualTo(NOW.toEpochMilli());
    }

    @Test
    void idsMadeInOneMillisecondStillSortInCreationOrderAndNeverRepeat() {
        EventIds ids = new EventIds(Clock.fixed(NOW, ZoneOffset.UTC));
        List<UUID> made = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) { // more than the 12-bit counter holds: borrows later milliseconds
            made.add(ids.next());
        }

        assertThat(made).isSortedAccordingTo(EventIdsTest::unsignedOrder);
        assertThat(new HashSet<>(made)).hasSize(made.size());
    }

    @Test
    void aClockThatStepsBackDoesNotMakeIdsGoBack() {
        MutableClock clock = new MutableClock(NOW);
        EventIds ids = new EventIds(clock);
        UUID before = ids.next();
        clock.now = NOW.minusSeconds(5);

        UUID after = ids.next();

        assertThat(unsignedOrder(after, before)).isPositive();
    }

    @Test
    void readingTheTimeOfANonVersion7IdIsRefused() {
        assertThatThrownBy(() -> EventIds.unixMillisOf(UUID.randomUUID()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** How PostgreSQL and the string form order UUIDs: as unsigned 128-bit numbers. */
    private static int unsignedOrder(UUID a, UUID b) {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}

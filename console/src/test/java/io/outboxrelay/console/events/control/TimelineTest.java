package io.outboxrelay.console.events.control;

import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.events.entity.AuditEntry;
import io.outboxrelay.console.events.entity.ConsumerStory;
import io.outboxrelay.console.events.entity.EventDetail;
import io.outboxrelay.console.events.entity.TimelineEntry;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 12, 2, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final UUID EVENT = UUID.fromString("0190f1c2-7d3a-7b4e-9c1d-2e3f4a5b6c7d");

    @Test
    void aPublishedEventReadsAppendedPublishedThenEachGroupThatHandledIt() {
        EventDetail event = event("SENT", ms(40), null, 0, List.of(),
                List.of(handled("notifications", ms(60)), handled("inventory", ms(55))));

        List<TimelineEntry> timeline = Timeline.of(event);

        assertThat(timeline).extracting(TimelineEntry::what).containsExactly("APPENDED", "PUBLISHED", "CONSUMED", "CONSUMED");
        assertThat(timeline).extracting(TimelineEntry::who).containsExactly("Order / o-1", "relay", "inventory", "notifications");
        assertThat(timeline.get(1).detail()).isEqualTo("order.events partition 2, offset 17");
        assertThat(timeline.get(2).detail()).isEqualTo("handled order.events-2@17");
    }

    @Test
    void aConsumerThatBeatTheRelaysRecordOfThePublicationIsListedAfterItWithItsOwnTime() {
        EventDetail event = event("SENT", ms(40), null, 0, List.of(), List.of(handled("inventory", ms(37))));

        List<TimelineEntry> timeline = Timeline.of(event);

        assertThat(timeline).extracting(TimelineEntry::what).containsExactly("APPENDED", "PUBLISHED", "CONSUMED");
        assertThat(timeline.get(2).at()).isEqualTo(ms(37));
    }

    @Test
    void aRelayDeadLetterShowsItsFailuresAndAReplayBeforeTheLaterPublication() {
        EventDetail dlt = event("DLT", null, ms(10), 6, List.of(), List.of());
        assertThat(Timeline.of(dlt)).extracting(TimelineEntry::what).containsExactly("APPENDED", "PUBLISH_FAILED", "DEAD_LETTERED");
        assertThat(Timeline.of(dlt).get(2).detail()).isEqualTo("to order.events.DLT after 6 attempt(s)");

        AuditEntry replay = new AuditEntry(1, ms(500), "alice", "REPLAY_ONE", EVENT, null, null, 1, 1, null);
        EventDetail republished = event("SENT", ms(900), null, 0, List.of(replay), List.of());
        assertThat(Timeline.of(republished)).extracting(TimelineEntry::what).containsExactly("APPENDED", "REPLAY_ASKED", "PUBLISHED");
        assertThat(Timeline.of(republished).get(1)).extracting(TimelineEntry::who, TimelineEntry::detail)
                .containsExactly("alice", "one event");
    }

    @Test
    void aGroupThatGaveTheRecordUpAndHadItReplayedShowsBothAndTheDuplicatesItSkipped() {
        ConsumerDeadLetter letter = new ConsumerDeadLetter(7, "inventory", EVENT, "OrderCreated", "order.events", 2, 17,
                "order.events.inventory.DLT", "java.lang.IllegalStateException", "no stock table", 5, ms(45), ms(52),
                "REPLAYED", 1, ms(2_100), "PROCESSED", ms(53), ms(2_100));
        AuditEntry asked = new AuditEntry(3, ms(2_000), "bob", "CONSUMER_REPLAY_ONE", EVENT, null, null, 1, 1, "inventory");
        ConsumerStory inventory = new ConsumerStory("inventory", ms(2_050), "order.events", 2, 17L, 1, ms(3_000),
                List.of(letter), true);
        EventDetail event = event("SENT", ms(40), null, 0, List.of(asked), List.of(inventory));

        List<TimelineEntry> timeline = Timeline.of(event);

        assertThat(timeline).extracting(TimelineEntry::what).containsExactly("APPENDED", "PUBLISHED", "CONSUMER_DEAD_LETTERED",
                "REPLAY_ASKED", "CONSUMED", "CONSUMER_REPLAYED", "DUPLICATES_SKIPPED");
        assertThat(timeline.get(2).detail()).isEqualTo("gave the record order.events-2@17 up after 5 attempt(s):"
                + " java.lang.IllegalStateException: no stock table; copy on order.events.inventory.DLT; now REPLAYED");
        assertThat(timeline.get(3).detail()).isEqualTo("one record, to consumer group inventory");
        assertThat(timeline.get(6).detail()).isEqualTo("1 more delivery skipped as duplicate (the last shown)");
    }

    @Test
    void anArchivedEventEndsWithItsArchiving() {
        EventDetail sent = event("SENT", ms(40), null, 0, List.of(), List.of(handled("inventory", ms(55))));
        EventDetail archived = new EventDetail(sent.eventId(), sent.aggregateType(), sent.aggregateId(), sent.eventType(),
                sent.eventVersion(), sent.topic(), sent.status(), sent.attempts(), sent.lastError(), sent.nextAttemptAt(),
                sent.lastAttemptAt(), sent.firstFailedAt(), null, null, sent.kafkaPartition(), sent.kafkaOffset(),
                sent.publishedAt(), sent.createdAt(), sent.updatedAt(), T0.plusDays(8), 0, sent.payload(), sent.headers(),
                List.of(), sent.consumers(), List.of());

        assertThat(Timeline.of(archived)).extracting(TimelineEntry::what)
                .containsExactly("APPENDED", "PUBLISHED", "CONSUMED", "ARCHIVED");
    }

    private static OffsetDateTime ms(long millis) {
        return T0.plusNanos(millis * 1_000_000);
    }

    private static ConsumerStory handled(String group, OffsetDateTime at) {
        return new ConsumerStory(group, at, "order.events", 2, 17L, 0, null, List.of(), true);
    }

    private static EventDetail event(String status, OffsetDateTime publishedAt, OffsetDateTime firstFailedAt, int attempts,
                                     List<AuditEntry> replays, List<ConsumerStory> consumers) {
        return new EventDetail(EVENT, "Order", "o-1", "OrderCreated", 1, "order.events", status, attempts,
                firstFailedAt == null ? null : "org.apache.kafka.common.errors.RecordTooLargeException: too large", null,
                null, firstFailedAt, null, null, publishedAt == null ? null : 2, publishedAt == null ? null : 17L,
                publishedAt, T0, publishedAt == null ? ms(20) : publishedAt, null, replays.size(), JsonValue.EMPTY_JSON_OBJECT,
                JsonValue.EMPTY_JSON_OBJECT, replays, consumers, List.of());
    }
}

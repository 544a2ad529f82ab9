package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.IntStream;

import static io.outboxrelay.support.EventRecords.assertCarriesEvent;
import static io.outboxrelay.support.EventRecords.eventIds;
import static io.outboxrelay.support.Kafka.header;
import static java.util.stream.Collectors.groupingBy;
import static java.util.stream.Collectors.toMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Committed outbox rows reach Kafka exactly once each, in order per aggregate, as CloudEvents
 * records, while the server's two relay workers claim from the same table at the same time.
 */
class RelayPublishingIT {

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void everyEventArrivesOnceInOrderPerAggregateAndItsRowSaysWhereItLanded() {
        String topic = Kafka.uniqueTopic("relay-publishing");
        Kafka.createTopic(topic, 3);
        List<String> aggregates = IntStream.range(0, 6).mapToObj(i -> "shipment-" + i + "-" + UUID.randomUUID()).toList();
        List<Event> events = IntStream.range(0, 60)
                .mapToObj(i -> Event.of(topic, aggregates.get(i % 6), "{\"sequence\": " + i + ", \"parcels\": [\"p-" + i + "\"]}"))
                .toList();

        List<Inserted> inserted = OutboxRows.insertAll(events);
        Map<UUID, Row> rows = OutboxRows.awaitAllSent(topic, events.size()).stream()
                .collect(toMap(Row::eventId, Function.identity()));
        List<ConsumerRecord<String, String>> records = Kafka.readAll(topic);

        assertThat(eventIds(records))
                .as("each event published exactly once, although two workers claim concurrently")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(inserted.stream().map(row -> row.eventId().toString()).toList());
        Map<String, Inserted> insertedByEventId = inserted.stream()
                .collect(toMap(row -> row.eventId().toString(), Function.identity()));
        for (ConsumerRecord<String, String> record : records) {
            Inserted event = insertedByEventId.get(header(record, "ce_id"));
            Row row = rows.get(event.eventId());
            assertCarriesEvent(record, event, row);
            assertThat(row.kafkaPartition()).as("partition recorded for " + event.eventId()).isEqualTo(record.partition());
            assertThat(row.kafkaOffset()).as("offset recorded for " + event.eventId()).isEqualTo(record.offset());
            assertThat(row.publishedAt()).as("publication time of " + event.eventId()).isNotNull();
        }
        assertEachAggregateIsConsumedInTheOrderItWasWritten(inserted, records);
    }

    @Test
    void anEventLeasedByAVanishedServerIsPublishedOnceItsLeaseHasExpired() {
        String topic = Kafka.uniqueTopic("relay-lease");
        Kafka.createTopic(topic, 1);

        Inserted abandoned = OutboxRows.insertLeased(
                Event.of(topic, "shipment-" + UUID.randomUUID(), "{\"parcels\": [\"p-1\"]}"), "some-vanished-server",
                "-1 minute").row();

        assertPublishedOnceAsWritten(topic, abandoned);
    }

    @Test
    void anEventLeasedByAnotherLiveRelayIsNotPublishedBeforeThatLeaseEnds() {
        String topic = Kafka.uniqueTopic("relay-held");
        Kafka.createTopic(topic, 1);

        OutboxRows.Leased held = OutboxRows.insertLeased(
                Event.of(topic, "shipment-" + UUID.randomUUID(), "{\"parcels\": [\"p-2\"]}"), "another-relay",
                "3 seconds");
        OutboxRows.awaitStatus(held.row().id(), "SENT");

        List<ConsumerRecord<String, String>> records = Kafka.readAll(topic);
        assertThat(eventIds(records)).containsExactly(held.row().eventId().toString());
        assertThat(Instant.ofEpochMilli(records.get(0).timestamp())).as("when this relay published it")
                .isAfterOrEqualTo(held.leaseUntil().truncatedTo(ChronoUnit.MILLIS));
    }

    @Test
    void anEventLeftInFlightByAServerOfAnEarlierReleaseIsPublishedOnceItsLeaseHasExpired() {
        String topic = Kafka.uniqueTopic("relay-lease-old");
        Kafka.createTopic(topic, 1);

        Inserted abandoned = OutboxRows.insertAbandonedByEarlierRelease(
                Event.of(topic, "shipment-" + UUID.randomUUID(), "{\"parcels\": [\"p-3\"]}"), "some-vanished-server");

        assertPublishedOnceAsWritten(topic, abandoned);
    }

    @Test
    void aRelayOfAnEarlierReleaseCanNoLongerClaimAnEvent() {
        Inserted pending = OutboxRows.insert(Event.of(Kafka.uniqueTopic("relay-old-claim"), "shipment-" + UUID.randomUUID(),
                "{\"parcels\": [\"p-4\"]}"));

        // what such a relay's claim wrote into the row: it would publish an event a relay of this release may hold
        assertThatThrownBy(() -> Database.update("UPDATE outbox_event SET status = 'IN_FLIGHT', lease_owner = 'old-relay',"
                + " lease_until = now() + interval '1 minute' WHERE id = ?", pending.id()))
                .hasStackTraceContaining("outbox_event_no_new_in_flight");
    }

    @Test
    void anEventARelayOfAnEarlierReleasePublishedIsNeitherPublishedAgainNorHoldsItsAggregateBack() {
        String topic = Kafka.uniqueTopic("relay-old-sent");
        Kafka.createTopic(topic, 1);
        String shipment = "shipment-" + UUID.randomUUID();
        Inserted sentEarlier = OutboxRows.insertSentByEarlierRelease(Event.of(topic, shipment, "{\"parcels\": [\"p-5\"]}"));

        Inserted next = OutboxRows.insert(Event.of(topic, shipment, "{\"parcels\": [\"p-6\"]}"));

        assertPublishedOnceAsWritten(topic, next);
        assertThat(Database.count("SELECT count(*) FROM outbox_unsent WHERE id IN (?, ?)", sentEarlier.id(), next.id()))
                .as("queued rows of the two events").isZero();
        assertThat(OutboxRows.row(sentEarlier.id()).status()).isEqualTo("SENT");
    }

    /** The row ends SENT, and its topic holds exactly one record: the event as it was written. */
    private static void assertPublishedOnceAsWritten(String topic, Inserted inserted) {
        Row row = OutboxRows.awaitStatus(inserted.id(), "SENT");

        List<ConsumerRecord<String, String>> records = Kafka.readAll(topic);
        assertThat(eventIds(records)).containsExactly(inserted.eventId().toString());
        assertCarriesEvent(records.get(0), inserted, row);
    }

    /** One key, one partition: a consumer of that partition sees the aggregate's events in id order. */
    private static void assertEachAggregateIsConsumedInTheOrderItWasWritten(List<Inserted> inserted,
                                                                           List<ConsumerRecord<String, String>> records) {
        Map<String, List<ConsumerRecord<String, String>>> consumed = records.stream() // in (partition, offset) order
                .collect(groupingBy(ConsumerRecord::key));
        inserted.stream().collect(groupingBy(row -> row.event().aggregateId())).forEach((aggregate, written) -> {
            List<ConsumerRecord<String, String>> ofAggregate = consumed.get(aggregate);
            assertThat(ofAggregate).extracting(ConsumerRecord::partition).as("partitions of " + aggregate)
                    .containsOnly(ofAggregate.get(0).partition());
            assertThat(eventIds(ofAggregate)).as("consumption order of " + aggregate)
                    .containsExactlyElementsOf(written.stream()
                            .sorted(Comparator.comparingLong(Inserted::id))
                            .map(row -> row.eventId().toString()).toList());
        });
    }
}

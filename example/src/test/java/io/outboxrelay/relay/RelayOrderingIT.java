package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.outboxrelay.support.EventRecords.eventIds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events of one aggregate are published in the order they were written, even across topics: an event
 * waiting for a retry holds back the later events of its aggregate, and only those.
 */
class RelayOrderingIT {

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void aRetryingEventHoldsBackTheLaterEventsOfItsAggregateButNotThoseOfOthers() {
        String missingTopic = Kafka.uniqueTopic("relay-ordering-missing");
        String topic = Kafka.uniqueTopic("relay-ordering");
        Kafka.createTopic(topic, 3);
        String aggregate = "shipment-A-" + UUID.randomUUID();
        List<Inserted> inserted = OutboxRows.insertAll(List.of(
                Event.of(missingTopic, aggregate, "{\"step\": 1}"),
                Event.of(topic, aggregate, "{\"step\": 2}"),
                Event.of(topic, "shipment-B-" + UUID.randomUUID(), "{\"step\": 1}")));
        Inserted first = inserted.get(0);
        Inserted second = inserted.get(1);
        Inserted otherAggregate = inserted.get(2);

        OutboxRows.awaitStatus(otherAggregate.id(), "SENT");
        OutboxRows.awaitRetrying(first.id());
        Row heldBack = OutboxRows.row(second.id());
        assertThat(heldBack.status()).as("the later event of the retrying aggregate waits").isEqualTo("PENDING");
        assertThat(heldBack.attempts()).as("and has not been tried").isZero();

        // Created before the first event runs out of attempts (4 in the test server).
        Kafka.createTopic(missingTopic, 1);
        Row firstSent = OutboxRows.awaitStatus(first.id(), "SENT");
        Row secondSent = OutboxRows.awaitStatus(second.id(), "SENT");

        assertThat(firstSent.publishedAt()).isBeforeOrEqualTo(secondSent.publishedAt());
        assertThat(eventIds(Kafka.readAll(missingTopic))).containsExactly(first.eventId().toString());
        assertThat(eventIds(Kafka.readAll(topic)))
                .containsExactlyInAnyOrder(otherAggregate.eventId().toString(), second.eventId().toString());
    }

    /**
     * An event given back after its round (or whose lease ran out) is due later than the events its
     * aggregate appended after it. With more such followers waiting than one claim looks at, a claim
     * that looked at the rows in due order saw only followers, each held back by an event it never
     * reached, and the relay stopped publishing for good.
     */
    @Test
    void eventsGivenBackAfterTheirFollowersWereAppendedStillGoFirstAndTheBacklogDrains() {
        String topic = Kafka.uniqueTopic("relay-ordering-given-back");
        Kafka.createTopic(topic, 3);
        String prefix = "parcel-" + UUID.randomUUID() + "-";
        int aggregates = 10;
        int followers = 450; // per aggregate: 4,500 in all, more than a claim's window (two batches of 2,000)
        // one statement, so the relay sees every row at once; ids ascend with s: the ten heads first
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          next_attempt_at)
                SELECT gen_random_uuid(), 'Parcel', ? || (s % ?), 'ParcelScanned', ?, jsonb_build_object('step', s / ?),
                       '{}'::jsonb, CASE WHEN s < ? THEN now() ELSE now() - interval '1 hour' END
                  FROM generate_series(0, ? - 1) AS s
                 ORDER BY s""", prefix, aggregates, topic, aggregates, aggregates, aggregates * (followers + 1));

        OutboxRows.awaitAllSent(topic, aggregates * (followers + 1));

        Pattern step = Pattern.compile("\"step\":\\s*(\\d+)");
        Map<String, List<Integer>> steps = new TreeMap<>();
        Kafka.readAll(topic).forEach(record -> {
            Matcher found = step.matcher(record.value());
            assertThat(found.find()).as("a step in " + record.value()).isTrue();
            steps.computeIfAbsent(record.key(), key -> new ArrayList<>()).add(Integer.parseInt(found.group(1)));
        });
        List<Integer> inOrder = new ArrayList<>();
        for (int i = 0; i <= followers; i++) {
            inOrder.add(i);
        }
        assertThat(steps).hasSize(aggregates);
        steps.forEach((aggregate, published) -> assertThat(published)
                .as("the events of %s, in the order Kafka holds them", aggregate).isEqualTo(inOrder));
    }
}

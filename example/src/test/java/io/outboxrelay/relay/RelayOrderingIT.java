package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

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
}

package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.DevStack;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.outboxrelay.support.EventRecords.eventIds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka goes away while events keep being written, then comes back: the events wait, none is charged
 * an attempt or given up on, and all of them are published, once each, after the broker returns.
 */
class RelayOutageIT {

    private static final int EVENTS = 200;

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @AfterAll
    static void kafkaIsBackForTheOtherTests() {
        DevStack.startKafka(); // does nothing when it already runs
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void eventsWrittenWhileKafkaIsDownArePublishedOnceEachWhenItReturnsWithoutSpendingAttempts() {
        String topic = Kafka.uniqueTopic("relay-outage");
        Kafka.createTopic(topic, 3);
        List<String> aggregates = IntStream.range(0, 10).mapToObj(i -> "shipment-" + i + "-" + UUID.randomUUID()).toList();
        List<Event> events = IntStream.range(0, EVENTS)
                .mapToObj(i -> Event.of(topic, aggregates.get(i % aggregates.size()), "{\"sequence\": " + i + "}"))
                .toList();

        List<Inserted> inserted;
        try {
            DevStack.stopKafka();
            inserted = OutboxRows.insertAll(events);
            // Many poll cycles and several producer timeouts (2 s in the test server) pass in this window.
            Awaitility.await("the events to stay waiting, uncharged, while Kafka is down")
                    .during(Duration.ofSeconds(6))
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> OutboxRows.onTopic(topic), RelayOutageIT::allWaitingWithoutAttempts);
        } finally {
            DevStack.startKafka();
        }
        List<Row> rows = OutboxRows.awaitAllSent(topic, EVENTS);

        assertThat(rows).as("no attempt spent on the outage").allSatisfy(row -> assertThat(row.attempts()).isZero());
        assertThat(eventIds(Kafka.readAll(topic)))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(inserted.stream().map(event -> event.eventId().toString()).toList());
    }

    private static boolean allWaitingWithoutAttempts(List<Row> rows) {
        assertThat(rows).hasSize(EVENTS).allSatisfy(row -> {
            assertThat(row.status()).as("status of " + row.eventId()).isIn(Set.of("PENDING", "IN_FLIGHT"));
            assertThat(row.attempts()).as("attempts of " + row.eventId()).isZero();
        });
        return true;
    }
}

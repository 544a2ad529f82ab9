package io.outboxrelay.relay;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import io.outboxrelay.support.OutboxRows.Event;
import io.outboxrelay.support.OutboxRows.Inserted;
import io.outboxrelay.support.OutboxRows.Row;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.IntStream;

import static io.outboxrelay.support.EventRecords.assertCarriesEvent;
import static io.outboxrelay.support.EventRecords.eventIds;
import static io.outboxrelay.support.Kafka.header;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events that Kafka refuses: a missing topic is retried until it exists; a record the topic can never
 * take goes to the topic's dead-letter topic, or ends DEAD when that is impossible too, without
 * holding back the other aggregates' events.
 */
class RelayFailuresIT {

    /** {@code outbox.relay.max-attempts} of the test server. */
    private static final int RELAY_MAX_ATTEMPTS = 6;

    /** Smaller than the poison payload, even compressed: the payload is random. */
    private static final Map<String, String> SMALL_MESSAGES = Map.of("max.message.bytes", "2048");

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void anEventForATopicThatDoesNotExistYetIsRetriedAndPublishedOnceTheTopicIsCreated() {
        String topic = Kafka.uniqueTopic("relay-missing");
        Inserted event = OutboxRows.insert(Event.of(topic, "shipment-" + UUID.randomUUID(), "{\"parcels\": []}"));

        Row retrying = OutboxRows.awaitRetrying(event.id());
        assertThat(retrying.firstFailedAt()).as("time of the first failure").isNotNull();
        Kafka.createTopic(topic, 1); // before the event runs out of attempts (RELAY_MAX_ATTEMPTS)
        Row sent = OutboxRows.awaitStatus(event.id(), "SENT");

        assertThat(sent.attempts()).as("the failed attempts are counted").isGreaterThanOrEqualTo(1);
        List<ConsumerRecord<String, String>> records = Kafka.readAll(topic);
        assertThat(eventIds(records)).containsExactly(event.eventId().toString());
        assertCarriesEvent(records.get(0), event, sent);
    }

    @Test
    void aRecordTooLargeForItsTopicGoesToTheDeadLetterTopicWithWhyAndTheOthersArePublished() {
        String topic = Kafka.uniqueTopic("relay-poison");
        Kafka.createTopic(topic, 3, SMALL_MESSAGES);
        Kafka.createTopic(topic + ".DLT", 1);
        List<Event> events = new ArrayList<>(IntStream.range(0, 5)
                .mapToObj(i -> Event.of(topic, "shipment-" + i + "-" + UUID.randomUUID(), "{\"parcels\": [\"p-" + i + "\"]}"))
                .toList());
        events.add(2, Event.of(topic, "shipment-P-" + UUID.randomUUID(), eightKilobytePayload()));

        List<Inserted> inserted = OutboxRows.insertAll(events);
        Inserted poison = inserted.get(2);
        List<Inserted> others = inserted.stream().filter(event -> event != poison).toList();

        Row deadLettered = OutboxRows.awaitStatus(poison.id(), "DLT");
        List<ConsumerRecord<String, String>> dlt = Kafka.readAll(topic + ".DLT");
        assertThat(eventIds(dlt)).containsExactly(poison.eventId().toString());
        ConsumerRecord<String, String> letter = dlt.get(0);
        assertCarriesEvent(letter, poison, deadLettered);
        assertThat(header(letter, "dlt_original_topic")).isEqualTo(topic);
        assertThat(header(letter, "dlt_error_class")).contains("RecordTooLargeException");
        assertThat(header(letter, "dlt_error_message")).isNotBlank();
        assertThat(header(letter, "dlt_event_id")).isEqualTo(poison.eventId().toString());
        assertThat(Integer.parseInt(header(letter, "dlt_attempts"))).isGreaterThanOrEqualTo(1);
        assertThat(OffsetDateTime.parse(header(letter, "dlt_first_failure_at")).toInstant())
                .isBeforeOrEqualTo(OffsetDateTime.parse(header(letter, "dlt_last_failure_at")).toInstant());

        others.forEach(event -> OutboxRows.awaitStatus(event.id(), "SENT"));
        assertThat(eventIds(Kafka.readAll(topic)))
                .containsExactlyInAnyOrderElementsOf(others.stream().map(event -> event.eventId().toString()).toList());
    }

    /** What a cluster that creates topics on first use does to the first dead letter of a topic, made to last. */
    @Test
    void aDeadLetterTopicThatAppearsWhileTheEventWaitsTakesItsDeadLetter() {
        String topic = Kafka.uniqueTopic("relay-late-dlt");
        Kafka.createTopic(topic, 1, SMALL_MESSAGES);
        Inserted poison = OutboxRows.insert(Event.of(topic, "shipment-P-" + UUID.randomUUID(), eightKilobytePayload()));

        String notYet = "dead-letter topic " + topic + ".DLT did not take it yet";
        Row waiting = OutboxRows.await(poison.id(), "a dead letter waiting for its topic",
                row -> row.status().equals("PENDING") && row.lastError() != null && row.lastError().contains(notYet));
        assertThat(waiting.lastError()).as("the event's own failure stays in view").contains("RecordTooLargeException");
        Kafka.createTopic(topic + ".DLT", 1);

        OutboxRows.awaitStatus(poison.id(), "DLT");
        assertThat(eventIds(Kafka.readAll(topic + ".DLT"))).containsExactly(poison.eventId().toString());
    }

    /**
     * The test cluster creates no topic on first use, so the dead-letter topic never appears: its dead letter is
     * tried again (it might have been on its way) past the event's last attempt, and then the event is DEAD.
     */
    @Test
    void aRecordThatNeitherItsTopicNorADeadLetterTopicCanTakeEndsDeadWithTheReason() {
        String topic = Kafka.uniqueTopic("relay-no-dlt");
        Kafka.createTopic(topic, 1, SMALL_MESSAGES);

        Inserted poison = OutboxRows.insert(Event.of(topic, "shipment-P-" + UUID.randomUUID(), eightKilobytePayload()));

        Row dead = OutboxRows.awaitStatus(poison.id(), "DEAD");
        assertThat(dead.lastError()).as("why it could not be published, and why not dead-lettered")
                .contains("RecordTooLargeException", "dead-letter topic " + topic + ".DLT failed too");
        assertThat(dead.attempts()).as("tried again while the dead-letter topic might still appear")
                .isGreaterThan(RELAY_MAX_ATTEMPTS);
    }

    /**
     * A missing topic costs the relay {@code max.block.ms} (2 s here) per batch before its records fail. Events for
     * four missing topics once used up a round's whole window (6 s here) on every claim: every event of their
     * batches was given back unsent, claimed again, and nothing was published any more, with nothing logged.
     * Now the records of a missing topic fail (an attempt each) and the topics that failed are checked last.
     */
    @Test
    void eventsForSeveralMissingTopicsDoNotHoldUpTheEventsBatchedWithThem() {
        String topic = Kafka.uniqueTopic("relay-beside-missing");
        Kafka.createTopic(topic, 1);
        List<Event> events = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            events.add(Event.of(Kafka.uniqueTopic("relay-missing-" + i), "shipment-M-" + UUID.randomUUID(), "{}"));
        }
        events.add(Event.of(topic, "shipment-" + UUID.randomUUID(), "{\"parcels\": []}")); // checked last at first
        List<Inserted> inserted = OutboxRows.insertAll(events);

        Row sent = OutboxRows.awaitStatus(inserted.get(4).id(), "SENT");
        assertThat(sent.kafkaOffset()).isNotNull();
        for (Inserted missing : inserted.subList(0, 4)) {
            assertThat(OutboxRows.await(missing.id(), "a failed attempt, or further", row -> row.attempts() > 0
                    || !"PENDING".equals(row.status())).lastError()).as("why").contains("not present in metadata");
        }
    }

    /** About 8 KB of random (so incompressible) text: larger than the topic accepts, even if the producer compresses. */
    private static String eightKilobytePayload() {
        byte[] noise = new byte[6 * 1024];
        new Random().nextBytes(noise);
        return "{\"parcels\": [], \"manifest\": \"" + Base64.getEncoder().encodeToString(noise) + "\"}";
    }
}

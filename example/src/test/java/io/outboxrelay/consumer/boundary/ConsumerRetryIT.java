package io.outboxrelay.consumer.boundary;

import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reusable consumer piece in another application (deployed by Arquillian next to Outbox
 * Relay, with its own liberty-kafka channel): a handler that fails twice and then works has
 * exactly one effect, made by its third call, and its record is acknowledged only after that.
 */
@ExtendWith(ArquillianExtension.class)
class ConsumerRetryIT {

    static final String TOPIC = "flaky.events";

    static final String GROUP = "flaky-it";

    @Deployment(testable = false)
    static WebArchive flakyApplication() {
        return FlakyApplication.war("flaky-consumer-it", TOPIC, GROUP);
    }

    @Test
    void aHandlerThatFailsTwiceThenWorksHasOneEffectMadeByItsThirdCall() {
        UUID eventId = UUID.randomUUID();
        String key = "flaky-" + eventId;

        RecordMetadata sent = Kafka.produce(TOPIC, key, "{\"failTimes\": 2}",
                Map.of("ce_id", eventId.toString(), "ce_type", "FlakyEvent"));
        Kafka.awaitCommittedPast(GROUP, TOPIC, sent.partition(), sent.offset());

        List<Map<String, Object>> effects = Database.rows("SELECT kind FROM notification WHERE event_id = ?", eventId);
        assertThat(effects).extracting(row -> row.get("kind"))
                .as("the two failed calls were rolled back; the third one committed")
                .containsExactly("call-3");
        assertThat(Database.count("SELECT count(*) FROM consumed_event WHERE consumer_group = ? AND event_id = ?",
                GROUP, eventId)).isEqualTo(1);
    }

    @Test
    void aHandlerThatNeverWorksWithinTheAttemptsEndsOnTheGroupsDeadLetterTopic() {
        UUID eventId = UUID.randomUUID();
        String key = "hopeless-" + eventId;

        Kafka.produce(TOPIC, key, "{\"failTimes\": 99}", Map.of("ce_id", eventId.toString(), "ce_type", "FlakyEvent"));

        var letters = Kafka.consumeUntil(TOPIC + "." + GROUP + ".DLT", "the dead letter of " + key,
                records -> records.stream().anyMatch(record -> key.equals(record.key())));
        var letter = letters.stream().filter(record -> key.equals(record.key())).findFirst().orElseThrow();
        assertThat(Kafka.header(letter, "dlt_attempts")).isEqualTo("3");
        assertThat(Kafka.header(letter, "dlt_error_message")).contains("downstream unavailable (call 3)");
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Database.count("SELECT count(*) FROM notification WHERE event_id = ?", eventId))
                        .as("every failed call was rolled back").isZero());
    }

    @Test
    void recordsOfDifferentPartitionsAreHandledAtTheSameTime() {
        String meetingPoint = "meet-" + UUID.randomUUID();
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        String payload = "{\"failTimes\": 0, \"meet\": \"" + meetingPoint + "\", \"parties\": 2}";

        RecordMetadata onFirst = Kafka.produce(TOPIC, 0, "first", payload, Map.of("ce_id", first.toString(), "ce_type", "FlakyEvent"));
        RecordMetadata onSecond = Kafka.produce(TOPIC, 1, "second", payload, Map.of("ce_id", second.toString(), "ce_type", "FlakyEvent"));
        Kafka.awaitCommittedPast(GROUP, TOPIC, onFirst.partition(), onFirst.offset());
        Kafka.awaitCommittedPast(GROUP, TOPIC, onSecond.partition(), onSecond.offset());

        assertThat(Database.rows("SELECT kind FROM notification WHERE event_id IN (?, ?)", first, second))
                .extracting(row -> row.get("kind"))
                .as("each handler waited for the other partition's record and met it on its first call; "
                        + "handled one after the other, the first would have given up")
                .containsExactly("call-1", "call-1");
    }
}

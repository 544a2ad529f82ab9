package io.outboxrelay.consumer.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.outboxrelay.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two consumer groups of other applications read one topic the relay publishes to; both give an event up
 * (their downstream fails three times, their attempts are three). Each dead letter is recorded in the
 * database beside its Kafka copy, the operator API replays one group's dead letter to that group alone,
 * and the event's story tells all of it, from the append to each group.
 */
@ExtendWith(ArquillianExtension.class)
class ConsumerReplayIT {

    static final String TOPIC = "replay.events";
    static final String REPLAYED = "replay-a";
    static final String OTHER = "replay-b";

    @Deployment(name = REPLAYED, testable = false, order = 1)
    static WebArchive replayedGroup() {
        return FlakyApplication.war("replay-consumer-a-it", TOPIC, REPLAYED);
    }

    @Deployment(name = OTHER, testable = false, order = 2)
    static WebArchive otherGroup() {
        return FlakyApplication.war("replay-consumer-b-it", TOPIC, OTHER);
    }

    @Test
    void aConsumerDeadLetterIsRecordedAndReplayedToItsOwnGroupAloneAndTheStoryTellsIt() {
        OutboxRows.Inserted appended = OutboxRows.insert(new OutboxRows.Event("Parcel", "parcel-" + UUID.randomUUID(),
                "ParcelBooked", TOPIC, "{\"failTimes\": 3}", "{}"));
        UUID eventId = appended.eventId();
        OutboxRows.Row published = OutboxRows.awaitStatus(appended.id(), "SENT");

        Map<String, Object> replayed = awaitDeadLetter(REPLAYED, eventId, "DEAD_LETTERED");
        Map<String, Object> other = awaitDeadLetter(OTHER, eventId, "DEAD_LETTERED");
        assertThat(replayed).as("the record, where it lay, and why it was given up")
                .containsEntry("topic", TOPIC)
                .containsEntry("kafka_partition", published.kafkaPartition())
                .containsEntry("kafka_offset", published.kafkaOffset())
                .containsEntry("attempts", 3)
                .containsEntry("error_class", IllegalStateException.class.getName())
                .containsEntry("error_message", "downstream unavailable (call 3)")
                .containsEntry("payload", "{\"failTimes\": 3}")
                .containsEntry("dlt_topic", TOPIC + "." + REPLAYED + ".DLT");
        List<ConsumerRecord<String, String>> copies = Kafka.consumeUntil(TOPIC + "." + REPLAYED + ".DLT",
                "the Kafka copy of the dead letter", records -> records.stream().anyMatch(record -> isOf(record, eventId)));
        assertThat(copies).filteredOn(record -> isOf(record, eventId)).isNotEmpty();

        Answer listed = Api.get("/outbox/api/consumer-dead-letters?eventId=" + eventId, Api.VIEWER);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(listed.json().getJsonArray("deadLetters")).extracting(letter -> ((JsonObject) letter).getString("consumerGroup"))
                .containsExactlyInAnyOrder(REPLAYED, OTHER);
        long id = ((Number) replayed.get("id")).longValue();
        assertThat(Api.get("/outbox/api/consumer-dead-letters/" + id, Api.VIEWER).json().getString("errorStack"))
                .contains("downstream unavailable (call 3)");

        assertProblem(Api.send(post("/outbox/api/consumer-dead-letters/" + id + "/replay"), Api.VIEWER), 403);
        Answer asked = Api.send(post("/outbox/api/consumer-dead-letters/" + id + "/replay"), Api.OPERATOR);
        assertThat(asked.status()).as(asked.body()).isEqualTo(200);
        assertThat(asked.json().getString("consumerGroup")).isEqualTo(REPLAYED);

        Map<String, Object> done = awaitDeadLetter(REPLAYED, eventId, "REPLAYED");
        assertThat(done).containsEntry("replay_outcome", "PROCESSED").containsEntry("replay_count", 1);
        assertThat(Database.rows("SELECT kind FROM notification WHERE event_id = ?", eventId))
                .extracting(row -> row.get("kind")).as("one effect, made by the replayed group's fourth call")
                .containsExactly("call-4");
        assertThat(Database.rows("SELECT consumer_group, kafka_topic, kafka_partition, kafka_offset FROM consumed_event"
                + " WHERE event_id = ?", eventId)).singleElement().satisfies(row -> assertThat(row)
                .containsEntry("consumer_group", REPLAYED).containsEntry("kafka_topic", TOPIC)
                .containsEntry("kafka_partition", published.kafkaPartition())
                .containsEntry("kafka_offset", published.kafkaOffset()));
        assertThat(awaitDeadLetter(OTHER, eventId, "DEAD_LETTERED")).as("the other group was not replayed to")
                .containsEntry("replay_count", 0);
        assertThat(Kafka.readAll(TOPIC)).filteredOn(record -> isOf(record, eventId)).as("nothing went through Kafka again")
                .hasSize(1);
        assertThat(Database.rows("SELECT actor, action, consumer_group FROM replay_audit WHERE event_id = ?", eventId))
                .singleElement().satisfies(row -> assertThat(row).containsEntry("actor", "operator")
                        .containsEntry("action", "CONSUMER_REPLAY_ONE").containsEntry("consumer_group", REPLAYED));
        assertProblem(Api.send(post("/outbox/api/consumer-dead-letters/" + id + "/replay"), Api.OPERATOR), 409);

        JsonObject story = Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json();
        assertThat(story.getJsonArray("timeline")).extracting(step -> ((JsonObject) step).getString("what"))
                .containsExactly("APPENDED", "PUBLISHED", "CONSUMER_DEAD_LETTERED", "CONSUMER_DEAD_LETTERED", "REPLAY_ASKED",
                        "CONSUMED", "CONSUMER_REPLAYED");
        JsonObject replayedStory = consumer(story, REPLAYED);
        assertThat(replayedStory.getString("processedAt")).isNotBlank();
        assertThat(replayedStory.getInt("offset")).isEqualTo(published.kafkaOffset().intValue());
        assertThat(replayedStory.getJsonArray("deadLetters").getJsonObject(0).getString("status")).isEqualTo("REPLAYED");
        JsonObject otherStory = consumer(story, OTHER);
        assertThat(otherStory.get("processedAt")).as("not handled").isIn(null, JsonValue.NULL);
        assertThat(otherStory.getJsonArray("deadLetters").getJsonObject(0).getString("status")).isEqualTo("DEAD_LETTERED");

        Answer dryRun = Api.post("/outbox/api/consumer-dead-letters/replay",
                "{\"consumerGroup\": \"" + OTHER + "\", \"eventId\": \"" + eventId + "\", \"dryRun\": true}", Api.OPERATOR);
        assertThat(dryRun.status()).as(dryRun.body()).isEqualTo(200);
        assertThat(dryRun.json().getInt("matched")).isEqualTo(1);
        assertThat(dryRun.json().getInt("requested")).isZero();
        assertThat(awaitDeadLetter(OTHER, eventId, "DEAD_LETTERED")).as("a dry run changes nothing").containsEntry("replay_count", 0);
        Answer bulk = Api.post("/outbox/api/consumer-dead-letters/replay",
                "{\"consumerGroup\": \"" + OTHER + "\", \"eventId\": \"" + eventId + "\"}", Api.OPERATOR);
        assertThat(bulk.json().getInt("requested")).isEqualTo(1);
        assertThat(awaitDeadLetter(OTHER, eventId, "REPLAYED")).containsEntry("replay_outcome", "PROCESSED");
        assertThat(Database.count("SELECT count(*) FROM consumed_event WHERE event_id = ?", eventId)).isEqualTo(2);
    }

    @Test
    void malformedOrUnknownConsumerDeadLettersAreRefusedWithAProblem() {
        assertProblem(Api.get("/outbox/api/consumer-dead-letters?status=LOST", Api.VIEWER), 400);
        assertProblem(Api.get("/outbox/api/consumer-dead-letters?size=0", Api.VIEWER), 400);
        assertProblem(Api.get("/outbox/api/consumer-dead-letters/not-a-number", Api.VIEWER), 400);
        assertProblem(Api.get("/outbox/api/consumer-dead-letters/" + Long.MAX_VALUE, Api.VIEWER), 404);
        assertProblem(Api.send(post("/outbox/api/consumer-dead-letters/" + Long.MAX_VALUE + "/replay"), Api.OPERATOR), 404);
        assertProblem(Api.post("/outbox/api/consumer-dead-letters/replay", "{\"group\": \"typo\"}", Api.OPERATOR), 400);
    }

    private static Map<String, Object> awaitDeadLetter(String group, UUID eventId, String status) {
        return Awaitility.await(group + "'s dead letter of " + eventId + " to be " + status)
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> Database.rows("SELECT * FROM consumer_dead_letter WHERE consumer_group = ? AND event_id = ?",
                        group, eventId).stream().findFirst().orElse(null), row -> row != null && status.equals(row.get("status")));
    }

    private static JsonObject consumer(JsonObject story, String group) {
        return story.getJsonArray("consumers").stream().map(JsonObject.class::cast)
                .filter(consumer -> group.equals(consumer.getString("consumerGroup"))).findFirst().orElseThrow();
    }

    private static boolean isOf(ConsumerRecord<String, String> record, UUID eventId) {
        return eventId.toString().equals(Kafka.header(record, "ce_id"));
    }

    private static HttpRequest.Builder post(String path) {
        return HttpRequest.newBuilder(Api.uri(path)).POST(HttpRequest.BodyPublishers.noBody())
                .header("Content-Type", "application/json");
    }
}

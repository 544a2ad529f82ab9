package io.outboxrelay.events;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.OutboxRows;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.outboxrelay.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator API on the real server: search, inspect, replay (audited), lag, and who may do what. */
class EventsApiIT {

    @Test
    void anEventIsFoundByItsExactEventIdAndShownWithEverythingAboutIt() {
        UUID eventId = deadLetter("Parcel", "parcel-" + UUID.randomUUID(), "DLT", "missing.topic");

        Answer found = Api.get("/outbox/api/events?eventId=" + eventId, Api.VIEWER);
        assertThat(found.status()).isEqualTo(200);
        assertThat(found.json().getJsonArray("events")).singleElement()
                .satisfies(event -> assertThat(((JsonObject) event).getString("eventId")).isEqualTo(eventId.toString()));

        JsonObject detail = Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json();
        assertThat(detail.getString("status")).isEqualTo("DLT");
        assertThat(detail.getString("lastError")).contains("RecordTooLargeException");
        assertThat(detail.getJsonObject("payload").getString("parcel")).isEqualTo("fragile");
        assertThat(detail.getJsonObject("headers").getString("correlation-id")).isEqualTo("it-ops");
        assertThat(detail.getJsonArray("replays")).isEmpty();
    }

    @Test
    void anOrdersEventIsFollowedFromItsAppendToEachConsumerGroupThatHandledItOrHasNotReachedIt() throws Exception {
        Answer created = Api.post("/api/orders", """
                {"customerId": "c-story", "lines": [{"sku": "STORY-1", "quantity": 1, "unitPrice": 3.00}]}""");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        UUID eventId = UUID.fromString(created.json().getString("eventId"));

        JsonObject story = Awaitility.await("both sample consumers to have handled " + eventId + " and committed past it")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json(),
                        detail -> handledHere(detail).stream().filter(consumer -> consumer.getBoolean("pastInKafka", false))
                                .count() == 2);

        assertThat(handledHere(story)).extracting(consumer -> consumer.getString("consumerGroup"))
                .containsExactly("inventory", "notifications");
        for (JsonObject consumer : handledHere(story)) {
            assertThat(consumer.getString("topic")).isEqualTo("order.events");
            assertThat(consumer.getInt("partition")).isEqualTo(story.getInt("kafkaPartition"));
            assertThat(consumer.getJsonNumber("offset").longValue()).isEqualTo(story.getJsonNumber("kafkaOffset").longValue());
            assertThat(consumer.getInt("duplicates")).isZero();
            assertThat(consumer.getJsonArray("deadLetters")).isEmpty();
        }
        assertThat(story.getJsonArray("timeline")).extracting(step -> ((JsonObject) step).getString("what"))
                .containsExactly("APPENDED", "PUBLISHED", "CONSUMED", "CONSUMED");
        assertThat(story.getJsonArray("timeline").getJsonObject(1).getString("detail"))
                .isEqualTo("order.events partition " + story.getInt("kafkaPartition") + ", offset "
                        + story.getJsonNumber("kafkaOffset").longValue());

        // a group of another product, which has committed up to the event but not past it
        String behind = "story-behind-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", Kafka.BOOTSTRAP))) {
            admin.alterConsumerGroupOffsets(behind, Map.of(new TopicPartition("order.events", story.getInt("kafkaPartition")),
                    new OffsetAndMetadata(story.getJsonNumber("kafkaOffset").longValue()))).all().get(30, TimeUnit.SECONDS);
        }
        JsonObject notYet = Awaitility.await(behind + " in the story").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json().getJsonArray("consumers")
                        .getValuesAs(JsonObject.class).stream().filter(consumer -> behind.equals(consumer.getString("consumerGroup")))
                        .findFirst().orElse(null), java.util.Objects::nonNull);
        assertThat(notYet.getBoolean("pastInKafka")).as("not read past the event yet").isFalse();
        assertThat(notYet.containsKey("processedAt")).isFalse();
    }

    private static List<JsonObject> handledHere(JsonObject story) {
        return story.getJsonArray("consumers").getValuesAs(JsonObject.class).stream()
                .filter(consumer -> consumer.containsKey("processedAt")).toList();
    }

    @Test
    void anEventRetentionArchivedIsStillFoundWithItsStory() {
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event_archive (id, event_id, aggregate_type, aggregate_id, event_type, event_version, topic,
                       payload, headers, status, attempts, next_attempt_at, kafka_partition, kafka_offset, published_at,
                       created_at, updated_at, replay_count, archived_at)
                VALUES (?, ?, 'Parcel', 'archived-1', 'ParcelDelivered', 1, 'parcel.events', '{"parcel": "kept"}'::jsonb,
                        '{}'::jsonb, 'SENT', 0, now() - interval '40 days', 1, 7, now() - interval '40 days',
                        now() - interval '40 days', now() - interval '40 days', 0, now() - interval '30 days')""",
                -java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 1_000_000_000L), eventId);

        Answer found = Api.get("/outbox/api/events/" + eventId, Api.VIEWER);

        assertThat(found.status()).as(found.body()).isEqualTo(200);
        JsonObject story = found.json();
        assertThat(story.getString("status")).isEqualTo("SENT");
        assertThat(story.getString("archivedAt")).isNotBlank();
        assertThat(story.getJsonObject("payload").getString("parcel")).isEqualTo("kept");
        assertThat(story.getJsonArray("timeline")).extracting(step -> ((JsonObject) step).getString("what"))
                .containsExactly("APPENDED", "PUBLISHED", "ARCHIVED");
    }

    @Test
    void anEventARelayHoldsIsShownInFlightWithItsLeaseAndFoundByThatStatusOnly() {
        String topic = Kafka.uniqueTopic("held");
        Kafka.createTopic(topic, 1);
        String aggregateId = "held-" + UUID.randomUUID();
        OutboxRows.Leased held = OutboxRows.insertLeased(OutboxRows.Event.of(topic, aggregateId, "{\"parcel\": \"held\"}"),
                "another-relay", "5 minutes");
        UUID eventId = held.row().eventId();

        JsonObject detail = Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json();
        assertThat(detail.getString("status")).isEqualTo("IN_FLIGHT");
        assertThat(detail.getString("leaseOwner")).isEqualTo("another-relay");
        assertThat(detail.getString("leaseUntil")).isNotBlank();
        String filter = "/outbox/api/events?aggregateId=" + aggregateId + "&status=";
        assertThat(Api.get(filter + "IN_FLIGHT", Api.VIEWER).json().getJsonArray("events")).singleElement()
                .satisfies(event -> assertThat(((JsonObject) event).getString("status")).isEqualTo("IN_FLIGHT"));
        assertThat(Api.get(filter + "PENDING", Api.VIEWER).json().getJsonArray("events")).isEmpty();

        Database.update("UPDATE outbox_unsent SET lease_owner = NULL, lease_until = NULL WHERE id = ?", held.row().id()); // the holder gives it back
        OutboxRows.awaitStatus(held.row().id(), "SENT"); // and this server's relay publishes it
        assertThat(Api.get(filter + "IN_FLIGHT", Api.VIEWER).json().getJsonArray("events")).isEmpty();
    }

    @Test
    void filtersCombineAndPagesWalkFromNewestToOldest() {
        String aggregateId = "paged-" + UUID.randomUUID();
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            written.add(0, deadLetter("Pager", aggregateId, "DEAD", "t").toString()); // newest first
        }

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Answer page = Api.get("/outbox/api/events?aggregateType=Pager&aggregateId=" + aggregateId + "&status=DEAD&size=2"
                    + (cursor == null ? "" : "&cursor=" + cursor), Api.VIEWER);
            assertThat(page.status()).isEqualTo(200);
            page.json().getJsonArray("events").getValuesAs(JsonObject.class)
                    .forEach(event -> seen.add(event.getString("eventId")));
            cursor = page.json().getString("nextCursor", null); // absent on the last page
            pages++;
        } while (cursor != null && pages < 10);

        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyElementsOf(written);
        assertThat(Api.get("/outbox/api/events?aggregateType=Pager&aggregateId=" + aggregateId + "&status=SENT", Api.VIEWER)
                .json().getJsonArray("events")).isEmpty();
    }

    @Test
    void anOperatorReplaysADeadLetterWhichTheRelayThenPublishesAndTheAuditRemembers() {
        String topic = Kafka.uniqueTopic("replayed");
        Kafka.createTopic(topic, 1);
        UUID fromDlt = deadLetter("Parcel", "p-" + UUID.randomUUID(), "DLT", topic);
        UUID fromDead = deadLetter("Parcel", "p-" + UUID.randomUUID(), "DEAD", topic);

        for (UUID eventId : List.of(fromDlt, fromDead)) {
            Answer replayed = Api.send(post("/outbox/api/events/" + eventId + "/replay"), Api.OPERATOR);
            assertThat(replayed.status()).as(replayed.body()).isEqualTo(200);
        }

        for (UUID eventId : List.of(fromDlt, fromDead)) {
            long id = ((Number) Database.rows("SELECT id FROM outbox_event WHERE event_id = ?", eventId).get(0).get("id")).longValue();
            OutboxRows.Row row = OutboxRows.awaitStatus(id, "SENT");
            assertThat(row.attempts()).isZero();
            JsonObject detail = Api.get("/outbox/api/events/" + eventId, Api.VIEWER).json();
            assertThat(detail.getInt("replayCount")).isEqualTo(1);
            assertThat(detail.getJsonArray("replays")).singleElement().satisfies(entry -> {
                assertThat(((JsonObject) entry).getString("actor")).isEqualTo("operator");
                assertThat(((JsonObject) entry).getString("action")).isEqualTo("REPLAY_ONE");
            });
        }
        assertThat(Kafka.readAll(topic)).hasSize(2);
    }

    @Test
    void onlyDeadLettersCanBeReplayedAndUnknownEventsAreNotFound() {
        UUID sent = deadLetter("Parcel", "p-" + UUID.randomUUID(), "SENT", "t");

        assertProblem(Api.send(post("/outbox/api/events/" + sent + "/replay"), Api.OPERATOR), 409);
        assertProblem(Api.send(post("/outbox/api/events/" + UUID.randomUUID() + "/replay"), Api.OPERATOR), 404);
        assertProblem(Api.get("/outbox/api/events/" + UUID.randomUUID(), Api.VIEWER), 404);
    }

    @Test
    void aBulkReplayCountsFirstThenReplaysOnlyWhatHadFailedBeforeItStarted() {
        String type = "Bulk" + UUID.randomUUID().toString().substring(0, 8);
        String missingTopic = "no-such-topic-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            deadLetter(type, "b-" + i, "DLT", missingTopic);
        }
        UUID failedLater = deadLetter(type, "b-late", "DEAD", missingTopic);
        Database.update("UPDATE outbox_event SET updated_at = now() + interval '1 hour' WHERE event_id = ?", failedLater);
        String filter = "{\"aggregateType\": \"" + type + "\"";

        Answer dryRun = Api.post("/outbox/api/events/replay", filter + ", \"dryRun\": true}", Api.OPERATOR);
        assertThat(dryRun.status()).as(dryRun.body()).isEqualTo(200);
        assertThat(dryRun.json().getInt("matched")).isEqualTo(3);
        assertThat(dryRun.json().getInt("replayed")).isZero();
        assertThat(Database.count("SELECT count(*) FROM outbox_event WHERE aggregate_type = ? AND replay_count > 0", type)).isZero();

        Answer replayed = Api.post("/outbox/api/events/replay", filter + "}", Api.OPERATOR);
        assertThat(replayed.json().getInt("matched")).isEqualTo(3);
        assertThat(replayed.json().getInt("replayed")).isEqualTo(3);
        assertThat(Database.rows("SELECT status FROM outbox_event_state WHERE event_id = ?", failedLater).get(0).get("status"))
                .as("failed after the cutoff: left alone").isEqualTo("DEAD");

        List<JsonObject> entries = Api.get("/outbox/api/audit?size=20", Api.VIEWER).jsonArray().getValuesAs(JsonObject.class);
        assertThat(entries).anySatisfy(entry -> {
            assertThat(entry.getString("action")).isEqualTo("REPLAY_BULK");
            assertThat(entry.getString("actor")).isEqualTo("operator");
            assertThat(entry.getInt("matched")).isEqualTo(3);
            assertThat(entry.getInt("replayed")).isEqualTo(3);
            assertThat(entry.getJsonObject("filter").getString("aggregateType")).isEqualTo(type);
        });
    }

    @Test
    void badParametersAre400ProblemsThatSayWhatIsWrong() {
        for (String query : List.of("eventId=not-a-uuid", "status=LOST", "from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z",
                "size=1000", "size=0", "size=ten", "cursor=abc", "from=yesterday", "aggregateId=" + "x".repeat(300))) {
            Answer answer = Api.get("/outbox/api/events?" + query, Api.VIEWER);
            assertProblem(answer, 400);
        }
        assertProblem(Api.post("/outbox/api/events/replay", "{\"status\": [\"SENT\"]}", Api.OPERATOR), 400);
        assertProblem(Api.get("/outbox/api/events/%27%3B%20DROP%20TABLE%20outbox_event%3B--", Api.VIEWER), 400);
    }

    @Test
    void withoutCredentialsTheOperatorApiAnswers401AndAViewerMayNotReplay() {
        for (String path : List.of("/outbox/api/events", "/outbox/api/lag", "/outbox/api/audit", "/outbox/api/events/" + UUID.randomUUID())) {
            Answer anonymous = Api.get(path);
            assertProblem(anonymous, 401);
            assertThat(anonymous.header("WWW-Authenticate")).startsWith("Basic");
            assertProblem(Api.get(path, Map.of("Authorization", "Basic " + java.util.Base64.getEncoder()
                    .encodeToString("operator:wrong-password".getBytes()))), 401);
        }
        UUID dlt = deadLetter("Parcel", "p-" + UUID.randomUUID(), "DLT", "t");
        assertProblem(Api.send(post("/outbox/api/events/" + dlt + "/replay"), Api.VIEWER), 403);
        assertThat(Database.rows("SELECT status FROM outbox_event_state WHERE event_id = ?", dlt).get(0).get("status"))
                .isEqualTo("DLT");
    }

    @Test
    void lagShowsRowsPerStatusAndTheConsumerGroupsBehindEachPartition() {
        // an order of its own, so that the inventory group has consumed (and committed) something even when this test runs alone
        assertThat(Api.post("/api/orders", "{\"customerId\": \"lag-" + UUID.randomUUID()
                + "\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 1, \"unitPrice\": 5}]}").status()).isEqualTo(201);
        // the figures are a snapshot the server takes every second here: wait for one that has the group
        org.awaitility.Awaitility.await("a lag snapshot with the inventory group").atMost(java.time.Duration.ofSeconds(60))
                .untilAsserted(() -> {
                    JsonObject lag = Api.get("/outbox/api/lag", Api.VIEWER).json();
                    assertThat(lag.getString("measuredAt")).isNotBlank();
                    assertThat(lag.getJsonObject("rowsByStatus").keySet()).contains("SENT");
                    assertThat(lag.getJsonNumber("oldestPendingAgeSeconds").doubleValue()).isGreaterThanOrEqualTo(0);
                    assertThat(lag.getJsonArray("consumerGroups").getValuesAs(JsonObject.class))
                            .anySatisfy(partition -> {
                                assertThat(partition.getString("group")).isEqualTo("inventory");
                                assertThat(partition.getString("topic")).isEqualTo("order.events");
                                assertThat(partition.getJsonNumber("lag").longValue()).isGreaterThanOrEqualTo(0);
                            });
                });
    }

    /** A row as the relay leaves a failed event; the API does not care who wrote it. */
    private static UUID deadLetter(String aggregateType, String aggregateId, String status, String topic) {
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          status, attempts, last_error, next_attempt_at)
                VALUES (?, ?, ?, 'ParcelLost', ?, '{"parcel": "fragile"}'::jsonb, '{"correlation-id": "it-ops"}'::jsonb,
                        ?, 3, 'org.apache.kafka.common.errors.RecordTooLargeException: too big', now())""",
                eventId, aggregateType, aggregateId, topic, status);
        return eventId;
    }

    /** A change without a body, declared as JSON as every change to the API must be. */
    private static HttpRequest.Builder post(String path) {
        return HttpRequest.newBuilder(Api.uri(path)).POST(HttpRequest.BodyPublishers.noBody())
                .header("Content-Type", "application/json");
    }
}

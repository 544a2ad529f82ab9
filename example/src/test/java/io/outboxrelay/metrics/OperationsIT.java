package io.outboxrelay.metrics;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.support.PublisherMode;
import jakarta.json.JsonObject;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scrape endpoint and the lag on the real server: Prometheus' own checker accepts the
 * output, the counters move with real traffic, a consumer group's lag matches a known
 * produced/committed count in both /outbox/api/lag and the metrics (with the age of its oldest
 * unconsumed record), and its dead letters waiting are counted until replayed.
 */
class OperationsIT {

    private static final Path PROMTOOL = Path.of(System.getProperty("it.promtool", "/usr/bin/promtool"));

    @BeforeAll
    static void serverIsReady() {
        Api.awaitReady(Duration.ofMinutes(3));
    }

    @Test
    void theScrapePassesPromtoolAndCountsPublishedAndConsumedEvents() throws Exception {
        Answer created = Api.post("/api/orders",
                "{\"customerId\": \"metrics-it\", \"lines\": [{\"sku\": \"metrics-mug\", \"quantity\": 1, \"unitPrice\": 5}]}");
        assertThat(created.status()).isEqualTo(201);
        UUID eventId = UUID.fromString(created.json().getString("eventId"));
        Awaitility.await("the order event to be published and consumed").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> Database.count("SELECT count(*) FROM consumed_event WHERE consumer_group = 'inventory'"
                        + " AND event_id = ?", eventId) == 1);

        String scrape = scrape();

        assertThat(promtool(scrape)).as("promtool check metrics").isEmpty();
        assertThat(value(scrape, "outbox_publish_results_total{result=\"sent\"}")).isPositive();
        assertThat(value(scrape, "outbox_consumer_records_total{group=\"inventory\",result=\"processed\"}")).isPositive();
        assertThat(value(scrape, "outbox_commit_to_ack_seconds_count")).isPositive();
        assertThat(value(scrape, "outbox_relay_mark_seconds_count")).as("rounds that marked events SENT").isPositive();
        assertThat(value(scrape, "outbox_relay_claim_seconds_count{path=\"claim\"}"))
                .as("claims of due rows: in CDC mode the safety net's, which run while the stream keeps up").isPositive();
        if (PublisherMode.cdc()) {
            assertThat(value(scrape, "outbox_relay_sent_total{path=\"stream\"}"))
                    .as("events the change stream handed over, not only the safety net's").isPositive();
            assertThat(value(scrape, "outbox_relay_claim_seconds_count{path=\"stream\"}")).isPositive();
        } else {
            assertThat(value(scrape, "outbox_relay_sent_total{path=\"claim\"}")).isPositive();
            assertThat(value(scrape, "outbox_relay_sent_total{path=\"stream\"}")).as("no stream in polling mode").isZero();
            assertThat(value(scrape, "outbox_relay_claim_seconds_count{path=\"stream\"}")).isZero();
        }
        assertThat(value(scrape, "outbox_consumer_handling_seconds_count{group=\"inventory\"}")).isPositive();
        assertThat(scrape).contains("outbox_events{status=\"SENT\"}", "outbox_oldest_pending_age_seconds ",
                "outbox_relay_outage 0", "outbox_relay_round_seconds_bucket");
        assertThat(scrape).as("no event id as a tag").doesNotContain(eventId.toString());
    }

    @Test
    void aConsumerGroupsLagIsWhatWasProducedMinusWhatItCommitted() {
        String topic = Kafka.uniqueTopic("lag");
        String group = "lag-it-" + UUID.randomUUID();
        Kafka.createTopic(topic, 1);
        for (int i = 0; i < 10; i++) {
            Kafka.produce(topic, 0, "k" + i, "{}", Map.of());
        }
        commit(group, new TopicPartition(topic, 0), 4);

        Awaitility.await("the lag snapshot to show the group").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    JsonObject partition = Api.get("/outbox/api/lag", Api.VIEWER).json().getJsonArray("consumerGroups")
                            .getValuesAs(JsonObject.class).stream()
                            .filter(lag -> group.equals(lag.getString("group")))
                            .findFirst().orElseThrow(() -> new AssertionError("no lag for " + group + " yet"));
                    assertThat(partition.getString("topic")).isEqualTo(topic);
                    assertThat(partition.getJsonNumber("committed").longValue()).isEqualTo(4);
                    assertThat(partition.getJsonNumber("end").longValue()).isEqualTo(10);
                    assertThat(partition.getJsonNumber("lag").longValue()).isEqualTo(6);
                    assertThat(partition.getJsonNumber("oldestUnconsumedAgeSeconds").doubleValue())
                            .as("the fifth record, the first the group has not consumed, was written moments ago")
                            .isPositive().isLessThan(120);
                });
        String scrape = scrape();
        assertThat(value(scrape, "outbox_consumer_lag_records{group=\"" + group + "\",partition=\"0\",topic=\"" + topic + "\"}"))
                .isEqualTo(6.0);
        assertThat(value(scrape, "outbox_consumer_oldest_unconsumed_age_seconds{group=\"" + group + "\",topic=\"" + topic + "\"}"))
                .isPositive().isLessThan(120);
    }

    @Test
    void theLagHistoryHoldsTheServersSnapshotsOldestFirst() {
        Awaitility.await("a few lag snapshots").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> Api.get("/outbox/api/lag/history", Api.VIEWER).jsonArray().size() >= 3);
        List<JsonObject> samples = Api.get("/outbox/api/lag/history", Api.VIEWER).jsonArray().getValuesAs(JsonObject.class);
        List<java.time.Instant> taken = samples.stream().map(sample -> java.time.Instant.parse(sample.getString("takenAt"))).toList();
        assertThat(taken).isSorted();
        assertThat(taken.get(0)).as("no older than the history's hour").isAfter(java.time.Instant.now().minus(Duration.ofMinutes(61)));
        assertThat(samples.get(samples.size() - 1)).containsKeys("oldestPendingAgeSeconds", "publishRatePerSecond", "consumerLag");
    }

    @Test
    void aConsumerGroupsDeadLettersWaitingAreMeteredUntilReplayed() {
        String group = "metrics-dlt-" + UUID.randomUUID();
        String series = "outbox_consumer_dead_letters_records{group=\"" + group + "\"}";
        Database.update("""
                INSERT INTO consumer_dead_letter (consumer_group, event_id, topic, kafka_partition, kafka_offset, headers,
                       dlt_topic, error_class, attempts, first_failed_at, last_failed_at, status)
                VALUES (?, ?, 'metrics.events', 0, 7, '{}'::jsonb, 'metrics.events.DLT', 'java.lang.IllegalStateException',
                        5, now(), now(), 'DEAD_LETTERED')""", group, UUID.randomUUID());

        Awaitility.await("the group's dead letter in the scrape").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> scrape().contains(series + " 1.0"));
        Database.update("UPDATE consumer_dead_letter SET status = 'REPLAYED' WHERE consumer_group = ?", group);
        Awaitility.await("the replayed dead letter to leave the gauge at 0").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> scrape().contains(series + " 0.0"));
    }

    private static void commit(String group, TopicPartition partition, long offset) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Kafka.BOOTSTRAP,
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"), new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(offset)), Duration.ofSeconds(30));
        }
    }

    private static String scrape() {
        Answer scrape = Api.get("/outbox/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        return scrape.body();
    }

    private static double value(String scrape, String series) {
        Matcher line = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        assertThat(line.find()).as(series + " in the scrape").isTrue();
        return Double.parseDouble(line.group(1));
    }

    /** What promtool finds wrong (empty: nothing). Fails loudly when promtool is not installed. */
    private static String promtool(String scrape) throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PROMTOOL)).as("promtool at " + PROMTOOL
                + ": install the Debian package prometheus (.ci/run does)").isTrue();
        Process process = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics").redirectErrorStream(true).start();
        process.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return process.exitValue() == 0 ? output.strip() : "exit " + process.exitValue() + ": " + output;
    }
}

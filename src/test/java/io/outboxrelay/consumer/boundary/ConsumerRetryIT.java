package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumedEvents;
import io.outboxrelay.consumer.control.ConsumerDeadLetters;
import io.outboxrelay.consumer.control.IncomingEvents;
import io.outboxrelay.consumer.control.Retrying;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.PoisonRecordException;
import io.outboxrelay.kafka.control.KafkaSettings;
import io.outboxrelay.relay.control.Backoff;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import io.outboxrelay.time.SystemClock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.File;
import java.net.URISyntaxException;
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

    @Deployment(testable = false)
    static WebArchive flakyApplication() {
        return ShrinkWrap.create(WebArchive.class, "flaky-consumer-it.war")
                .addClasses(FlakyConsumer.class, NotificationRows.class, ReliableConsumer.class,
                        IdempotentHandling.class, IdempotentHandling.Outcome.class, ConsumedEvents.class,
                        ConsumerDeadLetters.class, IncomingEvents.class, Retrying.class, Retrying.Result.class,
                        Retrying.Pause.class, Retrying.Work.class, IncomingEvent.class, PoisonRecordException.class,
                        Backoff.class, KafkaSettings.class, SystemClock.class)
                .addAsResource("META-INF/persistence.xml")
                .addAsResource(new StringAsset(String.join("\n",
                        "mp.messaging.connector.liberty-kafka.bootstrap.servers=${KAFKA_BOOTSTRAP_SERVERS}",
                        "mp.messaging.incoming.flaky.connector=liberty-kafka",
                        "mp.messaging.incoming.flaky.topic=" + TOPIC,
                        "mp.messaging.incoming.flaky.group.id=" + FlakyConsumer.GROUP,
                        "mp.messaging.incoming.flaky.key.deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                        "mp.messaging.incoming.flaky.value.deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                        "mp.messaging.incoming.flaky.enable.auto.commit=false",
                        "mp.messaging.incoming.flaky.auto.offset.reset=earliest")), "META-INF/microprofile-config.properties")
                .addAsLibraries(jarOf(KafkaProducer.class), jarOf(org.slf4j.Logger.class));
    }

    @Test
    void aHandlerThatFailsTwiceThenWorksHasOneEffectMadeByItsThirdCall() {
        UUID eventId = UUID.randomUUID();
        String key = "flaky-" + eventId;

        RecordMetadata sent = Kafka.produce(TOPIC, key, "{\"failTimes\": 2}",
                Map.of("ce_id", eventId.toString(), "ce_type", "FlakyEvent"));
        Kafka.awaitCommittedPast(FlakyConsumer.GROUP, TOPIC, sent.partition(), sent.offset());

        List<Map<String, Object>> effects = Database.rows("SELECT kind FROM notification WHERE event_id = ?", eventId);
        assertThat(effects).extracting(row -> row.get("kind"))
                .as("the two failed calls were rolled back; the third one committed")
                .containsExactly("call-3");
        assertThat(Database.count("SELECT count(*) FROM consumed_event WHERE consumer_group = ? AND event_id = ?",
                FlakyConsumer.GROUP, eventId)).isEqualTo(1);
    }

    @Test
    void aHandlerThatNeverWorksWithinTheAttemptsEndsOnTheGroupsDeadLetterTopic() {
        UUID eventId = UUID.randomUUID();
        String key = "hopeless-" + eventId;

        Kafka.produce(TOPIC, key, "{\"failTimes\": 99}", Map.of("ce_id", eventId.toString(), "ce_type", "FlakyEvent"));

        var letters = Kafka.consumeUntil(TOPIC + "." + FlakyConsumer.GROUP + ".DLT", "the dead letter of " + key,
                records -> records.stream().anyMatch(record -> key.equals(record.key())));
        var letter = letters.stream().filter(record -> key.equals(record.key())).findFirst().orElseThrow();
        assertThat(Kafka.header(letter, "dlt_attempts")).isEqualTo("3");
        assertThat(Kafka.header(letter, "dlt_error_message")).contains("downstream unavailable (call 3)");
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Database.count("SELECT count(*) FROM notification WHERE event_id = ?", eventId))
                        .as("every failed call was rolled back").isZero());
    }

    private static File jarOf(Class<?> type) {
        try {
            return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

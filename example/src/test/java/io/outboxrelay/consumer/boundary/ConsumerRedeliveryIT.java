package io.outboxrelay.consumer.boundary;

import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer that handled a record but whose offset commit was lost (it crashed in between)
 * gets the record again when it comes back. The redelivery must have no effect.
 */
@ExtendWith(ArquillianExtension.class)
class ConsumerRedeliveryIT {

    private static final String TOPIC = "redelivery.events";
    private static final String GROUP = "redelivery-it";
    private static final String APP = "redelivery-consumer-it";

    @Deployment(name = APP, managed = false, testable = false)
    static WebArchive consumerApplication() {
        return FlakyApplication.war(APP, TOPIC, GROUP);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void aRecordDeliveredAgainAfterItsOffsetWasLostHasNoSecondEffect() throws Exception {
        UUID eventId = UUID.randomUUID();
        RecordMetadata sent = Kafka.produce(TOPIC, "order-" + eventId, "{\"failTimes\": 0}",
                Map.of("ce_id", eventId.toString(), "ce_type", "OrderCreated"));

        deployer.deploy(APP);
        Kafka.awaitCommittedPast(GROUP, TOPIC, sent.partition(), sent.offset());
        deployer.undeploy(APP);
        assertThat(effects(eventId)).isEqualTo(1);

        rewind(new TopicPartition(TOPIC, sent.partition()), sent.offset()); // as if the commit never happened
        deployer.deploy(APP);
        try {
            Kafka.awaitCommittedPast(GROUP, TOPIC, sent.partition(), sent.offset());
        } finally {
            deployer.undeploy(APP);
        }

        assertThat(effects(eventId)).as("the redelivered record was recognised and skipped").isEqualTo(1);
        assertThat(Database.rows("SELECT duplicates, last_duplicate_at, kafka_topic, kafka_partition, kafka_offset"
                + " FROM consumed_event WHERE consumer_group = ? AND event_id = ?", GROUP, eventId))
                .singleElement().as("the group's record of the event counts the duplicate and names the record it handled")
                .satisfies(row -> assertThat(row).containsEntry("duplicates", 1).containsEntry("kafka_topic", TOPIC)
                        .containsEntry("kafka_partition", sent.partition()).containsEntry("kafka_offset", sent.offset())
                        .extractingByKey("last_duplicate_at").isNotNull());
    }

    private static long effects(UUID eventId) {
        return Database.count("SELECT count(*) FROM notification WHERE event_id = ?", eventId);
    }

    /** Moves the group back; Kafka accepts it once the group has no members left. */
    private static void rewind(TopicPartition partition, long offset) {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", Kafka.BOOTSTRAP))) {
            Awaitility.await("the group " + GROUP + " to accept the rewind")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> {
                        admin.alterConsumerGroupOffsets(GROUP, Map.of(partition, new OffsetAndMetadata(offset)))
                                .all().get(10, TimeUnit.SECONDS);
                        return true;
                    });
        }
    }
}

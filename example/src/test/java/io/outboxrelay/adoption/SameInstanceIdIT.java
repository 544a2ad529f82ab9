package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.outboxrelay.support.EventRecords.eventIds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two live relays must not share an instance id: leases are guarded by their owner's name, so each would take
 * the other's leases for its own. Here the test is the first relay (it holds the id's advisory lock, as a
 * running relay does) and the relay server, started with the same id, is the second: it does not relay, says
 * why in its log, and starts relaying as soon as the first has gone. Runs on a Liberty server of the adoption
 * tests' own, because the id must be taken before that server's relay starts.
 */
class SameInstanceIdIT {

    private static final String DATABASE = "same_instance_id";
    private static final String INSTANCE_ID = "relay-" + UUID.randomUUID().toString().substring(0, 8);
    /** The lock space and key the relay's InstanceClaim uses. */
    private static final String LOCK = "SELECT pg_try_advisory_lock(x'4f52454c'::int, hashtext(?))";

    @Test
    void aSecondLiveRelayWithTheSameInstanceIdWaitsUntilTheFirstHasGone() throws Exception {
        String topic = Kafka.uniqueTopic("same-instance-id");
        Kafka.createTopic(topic, 1);
        AdoptionServer.freshDatabase(DATABASE);
        String url = AdoptionServer.databaseUrl(DATABASE);
        try (Connection firstRelay = DriverManager.getConnection(url, "outbox", "outbox")) {
            assertThat(lock(firstRelay)).as("the first relay holds the id").isTrue();

            try (AdoptionServer second = AdoptionServer.start("outbox-same-instance-id", DATABASE, false, true, List.of(
                    new AdoptionServer.App("relay", AdoptionServer.serverWar(), "/relay", Map.of(
                            "outbox.relay.instance-id", INSTANCE_ID,
                            "outbox.relay.poll-interval-ms", "200"))))) {
                long id;
                try (Connection db = DriverManager.getConnection(second.databaseUrl(), "outbox", "outbox")) {
                    id = AdoptionServer.insertEvent(db, UUID.randomUUID(), "parcel-" + UUID.randomUUID(), topic, "PENDING");
                }
                Awaitility.await("the second relay to say why it does not relay").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> Files.readString(second.messagesLog()).contains(
                                "Another live relay holds the instance id " + INSTANCE_ID));
                assertThat(second.count("SELECT count(*) FROM outbox_event_state WHERE id = ? AND status = 'PENDING'"
                        + " AND attempts = 0 AND NOT EXISTS (SELECT 1 FROM outbox_unsent u WHERE u.id = outbox_event_state.id AND u.lease_owner IS NOT NULL)",
                        id)).as("it has not touched the event").isEqualTo(1);

                firstRelay.close(); // the first relay goes: its session, and the lock with it

                Awaitility.await("the second relay to publish once the first has gone").atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> second.count("SELECT count(*) FROM outbox_event_state WHERE id = ? AND status = 'SENT'", id) == 1);
                assertThat(eventIds(Kafka.readAll(topic))).hasSize(1);
                assertThat(Files.readString(second.messagesLog())).contains("now holds the instance id " + INSTANCE_ID);
            }
        }
    }

    private static boolean lock(Connection connection) throws Exception {
        try (PreparedStatement lock = connection.prepareStatement(LOCK)) {
            lock.setString(1, INSTANCE_ID);
            try (ResultSet result = lock.executeQuery()) {
                result.next();
                return result.getBoolean(1);
            }
        }
    }

}

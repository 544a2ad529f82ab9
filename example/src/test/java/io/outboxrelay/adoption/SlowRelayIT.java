package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.outboxrelay.support.EventRecords.eventIds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A live relay whose round outlasts its lease must not publish after another relay took its rows over. The slow
 * relay is a real one, on a Liberty server of the adoption tests' own. Its batch holds events for four topics that do
 * not exist and, after them, an aggregate's first event; asking Kafka for a missing topic's metadata blocks for
 * {@code max.block.ms} (5 s), and while the round waits there, between its claim and its sends, the test freezes the
 * server's JVM (SIGSTOP), as a long collector pause or a stalled machine would, past the round's 10 s lease. (A round
 * that is not frozen cannot outlast its lease this way: it checks no further topic once its send window has closed.)
 * The other relay is this test: once the lease has run out it takes the first event over, as any relay would,
 * publishes it and then the aggregate's next event, and lets the slow relay run on. Whatever the slow round does
 * next, the first event must not land on Kafka again after its successor.
 */
class SlowRelayIT {

    private static final String DATABASE = "slow_relay";

    @Test
    void aRoundThatOutlivesItsLeaseSendsNothingAfterAnotherRelayTookItsRowsOver() throws Exception {
        String topic = Kafka.uniqueTopic("slow-relay");
        Kafka.createTopic(topic, 1);
        String aggregate = "parcel-" + UUID.randomUUID();
        try (AdoptionServer slow = AdoptionServer.start("outbox-slow-relay", DATABASE, true, List.of(
                new AdoptionServer.App("relay", AdoptionServer.serverWar(), "/relay", Map.ofEntries(
                        Map.entry("outbox.relay.instance-id", "slow-relay"),
                        Map.entry("outbox.relay.poll-interval-ms", "200"),
                        Map.entry("outbox.relay.lease-ms", "10000"),
                        Map.entry("outbox.relay.producer.max.block.ms", "5000"),
                        Map.entry("outbox.relay.producer.request.timeout.ms", "1500"),
                        Map.entry("outbox.relay.producer.delivery.timeout.ms", "2000")))));
             Connection db = DriverManager.getConnection(slow.databaseUrl(), "outbox", "outbox")) {
            UUID first = UUID.randomUUID();
            UUID next = UUID.randomUUID();
            db.setAutoCommit(false); // one commit, so that one claim takes them all, the missing topics' first
            for (int i = 0; i < 4; i++) {
                AdoptionServer.insertEvent(db, UUID.randomUUID(), "other-" + i, Kafka.uniqueTopic("slow-relay-missing"), "PENDING");
            }
            long firstId = AdoptionServer.insertEvent(db, first, aggregate, topic, "PENDING");
            db.commit();
            db.setAutoCommit(true);

            OffsetDateTime slowLease = Awaitility.await("the slow relay to lease the first event").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> leaseOf(db, firstId, "slow-relay#%"), lease -> lease != null);
            slow.pause(); // the round is waiting for the first missing topic's metadata
            try {
                Awaitility.await("the slow relay's lease to run out, by the database's clock").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(100))
                        .until(() -> slow.count("SELECT count(*) WHERE now() > ?", slowLease) == 1);

                // the other relay: takes the expired lease over, publishes the first event, marks it, then the next one
                assertThat(update(db, "UPDATE outbox_unsent SET lease_owner = 'fast-relay', lease_until = now() + interval '1 minute'"
                        + " WHERE id = ? AND lease_until <= now()", firstId))
                        .as("the lease ran out while the slow round was still going").isEqualTo(1);
                Kafka.produce(topic, aggregate, "{\"step\": 1}", Map.of("ce_id", first.toString()));
                db.setAutoCommit(false);
                update(db, "DELETE FROM outbox_unsent WHERE id = ? AND lease_owner = 'fast-relay'", firstId);
                update(db, "UPDATE outbox_event SET status = 'SENT' WHERE id = ?", firstId);
                db.commit();
                db.setAutoCommit(true);
                Kafka.produce(topic, aggregate, "{\"step\": 2}", Map.of("ce_id", next.toString()));
                AdoptionServer.insertEvent(db, next, aggregate, topic, "SENT");
            } finally {
                slow.resume();
            }

            // the slow round ends: its other rows get their outcomes, or are leased anew by the next round
            Awaitility.await("the slow round's outcomes").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> slow.count("SELECT count(*) FROM outbox_event o WHERE aggregate_id LIKE 'other-%'"
                            + " AND NOT EXISTS (SELECT 1 FROM outbox_unsent l WHERE l.id = o.id AND l.lease_until <= ?)",
                            slowLease) == 4);

            assertThat(eventIds(Kafka.readAll(topic))).as("the aggregate's events on Kafka, in order")
                    .containsExactly(first.toString(), next.toString());
        }
    }

    private static OffsetDateTime leaseOf(Connection db, long id, String ownerPattern) throws Exception {
        try (PreparedStatement query = db.prepareStatement(
                "SELECT lease_until FROM outbox_unsent WHERE id = ? AND lease_owner LIKE ?")) {
            query.setLong(1, id);
            query.setString(2, ownerPattern);
            try (ResultSet result = query.executeQuery()) {
                return result.next() ? result.getObject(1, OffsetDateTime.class) : null;
            }
        }
    }

    private static int update(Connection db, String sql, long id) throws Exception {
        try (PreparedStatement update = db.prepareStatement(sql)) {
            update.setLong(1, id);
            return update.executeUpdate();
        }
    }
}

package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching publisher modes as docs/cdc.md says (restart the servers with the other {@code outbox.publisher}), on
 * one server and its database: polling, then CDC, then polling again. Events are appended while a server runs in
 * each mode and while none runs (between the switches); each is published once, and each becomes SENT where it
 * landed.
 */
class ModeSwitchIT {

    private static final String TOPIC = Kafka.uniqueTopic("switch-parcels");
    private static final String SLOT = "switch_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private static final String NAME = "outbox-adoption-switch";
    private static final String DATABASE = "adoption_switch";
    private static AdoptionServer server;

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        AdoptionServer.freshDatabase(DATABASE); // and the CDC mode's slot
    }

    @Test
    void pollingToCdcToPollingLosesNothingAndPublishesNothingTwice() throws Exception {
        Kafka.createTopic(TOPIC, 3);
        List<UUID> events = new ArrayList<>();

        server = start(true, "polling");
        events.addAll(append("polling", 3));
        awaitSent(events);
        server.close();
        events.addAll(append("between-polling-and-cdc", 3)); // waiting before the slot exists

        server = start(false, "cdc");
        Awaitility.await("the server streams from its slot").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM pg_replication_slots WHERE slot_name = ? AND active", SLOT) == 1);
        events.addAll(append("cdc", 3));
        awaitSent(events);
        server.close();
        events.addAll(append("between-cdc-and-polling", 3)); // in the slot, but nobody streams any more

        server = start(false, "polling");
        events.addAll(append("polling-again", 3));
        awaitSent(events);

        Map<String, Long> published = Kafka.consumeUntil(TOPIC, "every event of the three modes", consumed -> events.stream()
                        .allMatch(event -> consumed.stream().anyMatch(record -> event.toString().equals(Kafka.header(record, "ce_id")))))
                .stream().collect(Collectors.groupingBy(record -> Kafka.header(record, "ce_id"), Collectors.counting()));
        for (UUID event : events) {
            assertThat(published.get(event.toString())).as("published once: " + event).isEqualTo(1L);
        }
        assertThat(server.count("SELECT count(*) FROM outbox_event_state WHERE topic = ? AND status = 'SENT'"
                + " AND kafka_partition IS NOT NULL AND kafka_offset IS NOT NULL", TOPIC)).isEqualTo(events.size());
    }

    private static AdoptionServer start(boolean freshDatabase, String publisher) throws Exception {
        return AdoptionServer.start(NAME, DATABASE, freshDatabase, false, List.of(
                new AdoptionServer.App("payments", AdoptionServer.paymentsWarWithCdc(), "/payments", Map.of(
                        "outbox.publisher", publisher,
                        "outbox.cdc.slot", SLOT,
                        "outbox.cdc.publication", SLOT,
                        // what waited before the slot existed goes after the handover: short here, so the test need
                        // not wait the default 30 s
                        "outbox.cdc.handover-ms", "2000",
                        "outbox.cdc.poll-interval-ms", "1000"))));
    }

    private static List<UUID> append(String phase, int count) throws SQLException {
        List<UUID> appended = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(AdoptionServer.databaseUrl(DATABASE), "outbox", "outbox")) {
            for (int i = 0; i < count; i++) {
                UUID event = UUID.randomUUID();
                AdoptionServer.insertEvent(db, event, "parcel-" + phase + "-" + i, TOPIC, "PENDING");
                appended.add(event);
            }
        }
        return appended;
    }

    private static void awaitSent(List<UUID> events) {
        Awaitility.await("every event so far SENT").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> server.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ANY (?::uuid[]) AND status = 'SENT'",
                        (Object) events.stream().map(UUID::toString).toArray(String[]::new)) == events.size());
    }
}

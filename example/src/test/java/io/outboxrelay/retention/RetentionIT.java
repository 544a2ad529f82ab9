package io.outboxrelay.retention;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retention job on the real server (every second here, 3 rows per batch): published rows
 * older than 7 days, dedup-log rows and replayed consumer dead letters older than 30 days go; recent
 * ones, unpublished ones and dead letters waiting for an operator stay.
 */
class RetentionIT {

    @Test
    void onlyRowsPastTheirRetentionAreDeletedAndDeadLettersStay() {
        Api.awaitReady(Duration.ofMinutes(3));
        String topic = Kafka.uniqueTopic("retention");
        for (int i = 0; i < 7; i++) {
            row(topic, "SENT", "now() - interval '8 days'", "now() - interval '8 days'");
        }
        row(topic, "SENT", "now() - interval '6 days'", "now() - interval '6 days'");
        row(topic, "SENT", "now() - interval '6 days'", "now() - interval '6 days'");
        row(topic, "DLT", "now() - interval '100 days'", "NULL");
        row(topic, "DEAD", "now() - interval '100 days'", "NULL");
        String group = "retention-it-" + UUID.randomUUID();
        for (int i = 0; i < 5; i++) {
            consumed(group, "now() - interval '31 days'");
        }
        consumed(group, "now() - interval '29 days'");
        consumerDeadLetter(group, "REPLAYED", "now() - interval '31 days'");
        consumerDeadLetter(group, "REPLAYED", "now() - interval '29 days'");
        consumerDeadLetter(group, "DEAD_LETTERED", "now() - interval '100 days'");

        Awaitility.await("the old published rows, dedup-log rows and replayed consumer dead letters to be deleted")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> Database.count("SELECT count(*) FROM outbox_event_state WHERE topic = ? AND status = 'SENT'"
                        + " AND published_at < now() - interval '7 days'", topic) == 0
                        && Database.count("SELECT count(*) FROM consumed_event WHERE consumer_group = ?"
                        + " AND consumed_at < now() - interval '30 days'", group) == 0
                        && Database.count("SELECT count(*) FROM consumer_dead_letter WHERE consumer_group = ?"
                        + " AND status = 'REPLAYED' AND updated_at < now() - interval '30 days'", group) == 0);

        assertThat(Database.count("SELECT count(*) FROM outbox_event_state WHERE topic = ? AND status = 'SENT'", topic))
                .as("published 6 days ago: kept").isEqualTo(2);
        assertThat(Database.count("SELECT count(*) FROM outbox_event_state WHERE topic = ? AND status IN ('DLT', 'DEAD')", topic))
                .as("dead letters are never deleted by default").isEqualTo(2);
        assertThat(Database.count("SELECT count(*) FROM consumed_event WHERE consumer_group = ?", group))
                .as("consumed 29 days ago: kept").isEqualTo(1);
        assertThat(Database.rows("SELECT status FROM consumer_dead_letter WHERE consumer_group = ? ORDER BY status", group))
                .extracting(row -> row.get("status")).as("replayed 29 days ago, and one waiting for an operator: kept")
                .containsExactly("DEAD_LETTERED", "REPLAYED");
    }

    /**
     * Rows written days ago have smaller ids than today's (ids come from a sequence at insert),
     * which the job relies on to stop early: the test gives its backdated rows ids below any the
     * database handed out.
     */
    private static void row(String topic, String status, String createdAt, String publishedAt) {
        Database.update("INSERT INTO outbox_event (id, event_id, aggregate_type, aggregate_id, event_type, topic, payload,"
                + " headers, status, attempts, next_attempt_at, created_at, updated_at, published_at)"
                + " OVERRIDING SYSTEM VALUE"
                + " VALUES (?, ?, 'Archive', ?, 'Archived', ?, '{}'::jsonb, '{}'::jsonb, ?, 0, now(), "
                + createdAt + ", " + createdAt + ", " + publishedAt + ")",
                NEXT_BACKDATED_ID.getAndIncrement(), UUID.randomUUID(), "archive-" + UUID.randomUUID(), topic, status);
    }

    private static final java.util.concurrent.atomic.AtomicLong NEXT_BACKDATED_ID =
            new java.util.concurrent.atomic.AtomicLong(-java.util.concurrent.ThreadLocalRandom.current()
                    .nextLong(1_000_000_000_000L, 2_000_000_000_000L));

    private static void consumerDeadLetter(String group, String status, String changedAt) {
        Database.update("INSERT INTO consumer_dead_letter (consumer_group, event_id, topic, kafka_partition, kafka_offset,"
                + " headers, dlt_topic, error_class, attempts, first_failed_at, last_failed_at, status, created_at, updated_at)"
                + " VALUES (?, ?, 'archive.events', 0, ?, '{}'::jsonb, 'archive.events.DLT', 'java.lang.IllegalStateException', 5, "
                + changedAt + ", " + changedAt + ", ?, " + changedAt + ", " + changedAt + ")",
                group, UUID.randomUUID(), NEXT_BACKDATED_ID.getAndIncrement(), status);
    }

    private static void consumed(String group, String consumedAt) {
        Database.update("INSERT INTO consumed_event (consumer_group, event_id, event_type, consumed_at) VALUES (?, ?, 'Archived', "
                + consumedAt + ")", group, UUID.randomUUID());
    }
}

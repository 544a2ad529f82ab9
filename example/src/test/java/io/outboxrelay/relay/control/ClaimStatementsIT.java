package io.outboxrelay.relay.control;

import io.outboxrelay.relay.boundary.RelaySettings.Ordering;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.SchemaOfItsOwn;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relay's claim statements, each ordering, on the real PostgreSQL, inside a transaction that is rolled
 * back: the rows it inserts are seen by nobody else, and the other relays' rows it may lease go back as they were.
 * Run by hand with the binding {@code RelayStore.claim} uses; the server under test claims in aggregate order
 * only, so this is where the unordered claim ({@code outbox.relay.ordering=none}) runs at all.
 */
class ClaimStatementsIT {

    /** The relay's default, {@code outbox.relay.ordering.events-per-aggregate}. */
    private static final int EVENTS_PER_AGGREGATE = 4;

    @Test
    void anUnorderedClaimTakesUpToItsLimitAndNothingLeasedAlready() throws SQLException {
        rolledBack(connection -> {
            String aggregate = "claim-" + UUID.randomUUID();
            List<Long> mine = List.of(insert(connection, aggregate), insert(connection, aggregate));

            List<Long> one = claim(connection, Ordering.NONE, false, 1);
            assertThat(one).hasSize(1);

            List<Long> rest = claim(connection, Ordering.NONE, false, 10_000);
            assertThat(rest).as("the rest, up to the limit, without what the first claim leased")
                    .containsAnyElementsOf(mine).doesNotContainAnyElementsOf(one).hasSizeLessThan(10_000);
        });
    }

    /**
     * A relay claims with the same statement round after round; planning it every time cost the database as much as
     * a small claim's own work. PostgreSQL keeps one plan for a prepared statement after five made for each call's
     * values, unless that plan looks costlier than theirs, as it did while the limits were bound and the queue's
     * statistics said it held thousands of events.
     */
    @Test
    void aClaimIsPlannedOnceForAQueueOfThousands() throws SQLException {
        for (Ordering ordering : Ordering.values()) {
            rolledBack(connection -> {
                try (PreparedStatement backlog = connection.prepareStatement("""
                        INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload)
                        SELECT gen_random_uuid(), 'Claim', ? || g, 'Claimed', 'claim.events', '{}'::jsonb
                          FROM generate_series(1, 10000) g""")) {
                    backlog.setString(1, "claim-" + UUID.randomUUID() + "-");
                    backlog.executeUpdate();
                }
                try (Statement analyze = connection.createStatement()) {
                    analyze.execute("ANALYZE outbox_unsent"); // its statistics now count this transaction's rows
                }
                int claims = 15;
                for (int i = 0; i < claims; i++) {
                    assertThat(claim(connection, ordering, false, 100)).as("claim %d", i).isNotEmpty();
                }

                try (Statement plans = connection.createStatement();
                     ResultSet counted = plans.executeQuery("""
                             SELECT sum(generic_plans) AS generic, sum(custom_plans) AS custom
                               FROM pg_prepared_statements WHERE statement LIKE '%claimable AS%'""")) {
                    counted.next();
                    assertThat(counted.getLong("custom")).as(ordering + ": claims planned for their values")
                            .isLessThanOrEqualTo(5);
                    assertThat(counted.getLong("generic")).as(ordering + ": claims run with the plan kept")
                            .isPositive();
                }
            });
        }
    }

    @Test
    void anOrderedClaimTakesAnAggregatesFirstEventsUpToItsShareAndNoneBehindThem() throws SQLException {
        for (boolean blockOnDead : List.of(false, true)) {
            for (int perAggregate : List.of(1, 4)) {
                rolledBack(connection -> {
                    String aggregate = "claim-" + UUID.randomUUID();
                    List<Long> events = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        events.add(insert(connection, aggregate));
                    }

                    List<Long> claimed = claim(connection, Ordering.AGGREGATE, blockOnDead, perAggregate, 10_000);
                    List<Long> again = claim(connection, Ordering.AGGREGATE, blockOnDead, perAggregate, 10_000);

                    String which = "blockOnDead=" + blockOnDead + ", " + perAggregate + " per aggregate";
                    assertThat(claimed).as(which + ": the first ones, in a run").containsAll(
                            events.subList(0, perAggregate)).doesNotContainAnyElementsOf(
                            events.subList(perAggregate, events.size()));
                    assertThat(again).as(which + ": the rest wait until those are sent")
                            .doesNotContainAnyElementsOf(events);
                });
            }
        }
    }

    /**
     * A batch in flight holds back every aggregate it has events of, so a batch should hold as few aggregates as it
     * can: whole runs of the oldest aggregates rather than the oldest events of many.
     */
    @Test
    void aFullBatchTakesWholeRunsOfTheOldestAggregates() throws SQLException {
        inSchemaOfItsOwn((connection, schema) -> {
            List<Long> first = new ArrayList<>();
            List<Long> second = new ArrayList<>();
            for (int i = 0; i < 4; i++) { // interleaved: first, second, first, second, ...
                first.add(insert(connection, "first"));
                second.add(insert(connection, "second"));
            }

            List<Long> claimed = claim(connection, Ordering.AGGREGATE, false, 4, 4);

            assertThat(claimed).as("the run of the aggregate with the oldest event")
                    .containsExactlyInAnyOrderElementsOf(first);
        });
    }

    /**
     * A run's first event taken by another relay meanwhile (here: locked by another transaction, as a claim or an
     * outcome locks it) must keep the rest of the run back, or they would go to Kafka ahead of it.
     */
    @Test
    void aRunStopsWhereAnotherTransactionHoldsAnEventOfIt() throws SQLException {
        inSchemaOfItsOwn((connection, schema) -> {
            long locked = insert(connection, "run");
            long behindLocked = insert(connection, "run");
            long elsewhere = insert(connection, "elsewhere");
            try (Statement wait = connection.createStatement()) {
                wait.execute("SET lock_timeout = '5s'"); // a claim that waits for the held row fails, not hangs
            }
            try (Connection other = schema.connect()) {
                other.setAutoCommit(false);
                try (PreparedStatement lock = other.prepareStatement(
                        "SELECT id FROM outbox_unsent WHERE id = ? FOR NO KEY UPDATE")) {
                    lock.setLong(1, locked);
                    lock.executeQuery().close();
                }

                assertThat(claim(connection, Ordering.AGGREGATE, false, 4, 500))
                        .as("the other aggregate's event; neither of the run's").containsExactly(elsewhere);

                other.rollback();
            }
            assertThat(claim(connection, Ordering.AGGREGATE, false, 4, 500)).as("once the lock is gone, the run")
                    .containsExactly(locked, behindLocked);
        });
    }

    @Test
    void anOrderedClaimHoldsAnAggregateBackBehindAnEarlierEventItCannotTakeNow() throws SQLException {
        for (boolean blockOnDead : List.of(false, true)) {
            rolledBack(connection -> {
                String inFlight = "claim-" + UUID.randomUUID();
                long leased = insert(connection, inFlight);
                assertThat(claim(connection, Ordering.AGGREGATE, blockOnDead, 10_000)).as("a relay leases it")
                        .contains(leased);
                long behindLeased = insert(connection, inFlight);
                String retrying = "claim-" + UUID.randomUUID();
                long backingOff = insert(connection, retrying);
                long behindBackoff = insert(connection, retrying);
                String deadLettered = "claim-" + UUID.randomUUID();
                long dead = insert(connection, deadLettered);
                long behindDead = insert(connection, deadLettered);
                try (PreparedStatement later = connection.prepareStatement(
                        "UPDATE outbox_event SET next_attempt_at = now() + interval '1 hour' WHERE id = ?");
                     PreparedStatement letter = connection.prepareStatement(
                             "UPDATE outbox_event SET status = 'DLT' WHERE id = ?")) {
                    later.setLong(1, backingOff);
                    later.executeUpdate();
                    letter.setLong(1, dead);
                    letter.executeUpdate();
                }
                long free = insert(connection, "claim-" + UUID.randomUUID());

                List<Long> claimed = claim(connection, Ordering.AGGREGATE, blockOnDead, 10_000);

                assertThat(claimed).as("blockOnDead=" + blockOnDead + ": behind an event in flight, or in backoff")
                        .contains(free).doesNotContain(behindLeased, behindBackoff, backingOff);
                if (blockOnDead) {
                    assertThat(claimed).as("behind a dead letter").doesNotContain(behindDead);
                } else {
                    assertThat(claimed).as("a dead letter holds nothing back by default").contains(behindDead);
                }
            });
        }
    }

    @Test
    void inCdcModeAClaimLeavesEventsToTheChangeStreamForTheHandover() throws SQLException {
        for (Ordering ordering : Ordering.values()) {
            rolledBack(connection -> {
                long fresh = insert(connection, "claim-" + UUID.randomUUID());
                long handedOver = insert(connection, "claim-" + UUID.randomUUID());
                try (PreparedStatement age = connection.prepareStatement(
                        "UPDATE outbox_event SET next_attempt_at = now() - interval '2 minutes' WHERE id = ?")) {
                    age.setLong(1, handedOver);
                    age.executeUpdate();
                }

                List<Long> claimed = claim(connection, ordering, false, 10_000, Duration.ofMinutes(1));

                assertThat(claimed).as(ordering + ": due for over a minute, or not").contains(handedOver)
                        .doesNotContain(fresh);
            });
        }
    }

    @Test
    void inCdcModeAnEventARelayClaimedBeforeGoesWhenDueWithoutTheHandover() throws SQLException {
        for (Ordering ordering : Ordering.values()) {
            rolledBack(connection -> {
                long retried = insert(connection, "claim-" + UUID.randomUUID());
                assertThat(claim(connection, Ordering.NONE, false, 10_000)).as("a relay claims it").contains(retried);
                try (PreparedStatement retry = connection.prepareStatement( // its send failed: a retry, due now
                        "UPDATE outbox_unsent SET lease_owner = NULL, lease_until = NULL WHERE id = ?")) {
                    retry.setLong(1, retried);
                    retry.executeUpdate();
                }
                long fresh = insert(connection, "claim-" + UUID.randomUUID());

                List<Long> claimed = claim(connection, ordering, false, 10_000, Duration.ofMinutes(1));

                assertThat(claimed).as(ordering + ": claimed before, so not in the stream again; or just appended")
                        .contains(retried).doesNotContain(fresh);
            });
        }
    }

    @Test
    void theFollowersClaimTakesTheNextEventOfEachGivenAggregateThatNothingHoldsBack() throws SQLException {
        rolledBack(connection -> {
            String aggregate = "claim-" + UUID.randomUUID();
            long first = insert(connection, aggregate);
            long second = insert(connection, aggregate);
            long elsewhere = insert(connection, "claim-" + UUID.randomUUID());
            long key = aggregateKey(connection, first);

            assertThat(followers(connection, key)).as("the first, not the second behind it, nor another aggregate's")
                    .containsExactly(first);
            try (PreparedStatement sent = connection.prepareStatement(
                    "UPDATE outbox_event SET status = 'SENT' WHERE id = ?")) {
                sent.setLong(1, first);
                sent.executeUpdate();
            }
            assertThat(followers(connection, key)).as("once the first is sent").containsExactly(second)
                    .doesNotContain(elsewhere);
        });
    }

    private static List<Long> followers(Connection connection, long aggregateKey) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(RelayStore.followersStatement(false))) {
            claim.setArray(1, connection.createArrayOf("bigint", new Object[] {aggregateKey}));
            claim.setInt(2, 500);
            claim.setString(3, "claim-statements-it-" + UUID.randomUUID()); // a lease of its own each time
            claim.setLong(4, 60_000);
            List<Long> ids = ids(claim);
            // give the leases back, so that the next claim judges by order, not by lease
            try (PreparedStatement unlease = connection.prepareStatement(
                    "UPDATE outbox_unsent SET lease_owner = NULL, lease_until = NULL WHERE aggregate_key = ?")) {
                unlease.setLong(1, aggregateKey);
                unlease.executeUpdate();
            }
            return ids;
        }
    }

    private static long aggregateKey(Connection connection, long id) throws SQLException {
        try (PreparedStatement key = connection.prepareStatement("SELECT aggregate_key FROM outbox_unsent WHERE id = ?")) {
            key.setLong(1, id);
            try (ResultSet row = key.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static List<Long> claim(Connection connection, Ordering ordering, boolean blockOnDead, int limit) throws SQLException {
        return claim(connection, ordering, blockOnDead, limit, Duration.ZERO);
    }

    private static List<Long> claim(Connection connection, Ordering ordering, boolean blockOnDead, int perAggregate,
                                    int limit) throws SQLException {
        return claim(connection, ordering, blockOnDead, perAggregate, limit, Duration.ZERO);
    }

    private static List<Long> claim(Connection connection, Ordering ordering, boolean blockOnDead, int limit,
                                    Duration handover) throws SQLException {
        return claim(connection, ordering, blockOnDead, EVENTS_PER_AGGREGATE, limit, handover);
    }

    /** As {@code RelayStore.claim} binds the statement; the ids it leased, in id order. */
    private static List<Long> claim(Connection connection, Ordering ordering, boolean blockOnDead, int perAggregate,
                                    int limit, Duration handover) throws SQLException {
        try (PreparedStatement claim = connection.prepareStatement(
                RelayStore.claimStatement(ordering, blockOnDead, perAggregate, handover, limit))) {
            claim.setString(1, "claim-statements-it");
            claim.setLong(2, 60_000);
            return ids(claim);
        }
    }

    /** The ids of the events a claim statement leased, in id order. */
    private static List<Long> ids(PreparedStatement claim) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (ResultSet rows = claim.executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong("id"));
            }
        }
        ids.sort(null);
        return ids;
    }

    /** What a test does on its connection, in a transaction rolled back afterwards (see the class's comment). */
    @FunctionalInterface
    private interface Work {
        void in(Connection connection) throws SQLException;
    }

    /** What a test does on a connection to a schema of its own (see {@link SchemaOfItsOwn}), where it may commit. */
    @FunctionalInterface
    private interface WorkInSchema {
        void in(Connection connection, SchemaOfItsOwn schema) throws SQLException;
    }

    private static void inSchemaOfItsOwn(WorkInSchema work) throws SQLException {
        try (SchemaOfItsOwn schema = SchemaOfItsOwn.named("claim_it_")) {
            schema.migrate();
            try (Connection connection = schema.connect()) {
                work.in(connection, schema);
            }
        }
    }

    private static void rolledBack(Work work) throws SQLException {
        try (Connection connection = Database.connect()) {
            connection.setAutoCommit(false);
            try {
                work.in(connection);
            } finally {
                connection.rollback();
            }
        }
    }

    private static long insert(Connection connection, String aggregate) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers)
                VALUES (?, 'Claim', ?, 'Claimed', 1, 'claim.events', '{}'::jsonb, '{}'::jsonb) RETURNING id""")) {
            insert.setObject(1, UUID.randomUUID());
            insert.setString(2, aggregate);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}

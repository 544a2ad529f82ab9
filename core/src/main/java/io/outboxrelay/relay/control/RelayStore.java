package io.outboxrelay.relay.control;

import io.outboxrelay.relay.boundary.RelaySettings.Ordering;
import io.outboxrelay.relay.control.Outcomes.Retry;
import io.outboxrelay.relay.control.Outcomes.Sent;
import io.outboxrelay.relay.entity.ClaimedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The relay's SQL: one statement per batch for each step, each in its own short transaction
 * (auto-commit on the non-JTA data source), never inside a business transaction; on the connections that
 * {@link RelayConnections} hands out.
 * <p>
 * The claim reads the events to publish from {@code outbox_unsent}, a narrow queue of the events not yet
 * SENT that triggers keep in step with {@code outbox_event} (see migration V004), and writes its lease into
 * the event's queue row (V006), not the wide outbox row. An event that is published has its wide row
 * written once, by the append: the SENT mark deletes its queue row and inserts a narrow record of where it
 * landed into {@code outbox_sent} (V014); only a retry or a dead letter updates the wide row. An outcome is
 * recorded only for events whose lease this relay still holds: the statement first takes the relay's queue
 * rows (deletes them for SENT, clears their lease otherwise) and writes the outcome of exactly those, so a
 * relay that lost its lease cannot overwrite the work of the one that took it over.
 * <p>
 * Rows that a server of an earlier release left {@code IN_FLIGHT} (lease in the outbox row, due
 * when it runs out) are claimed like PENDING rows once due; a failure's outcome clears those columns, and once
 * such an event is published the view {@code outbox_event_state} shows it SENT with no lease.
 */
@ApplicationScoped
public class RelayStore {

    /** PostgreSQL's SQLSTATE for a transaction it aborted to break a deadlock. */
    private static final String DEADLOCK_DETECTED = "40P01";
    /** PostgreSQL's SQLSTATE for a row whose key another row has already. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** A {@code jsonb} empty object as PostgreSQL writes it out. */
    private static final String NO_HEADERS = "{}";

    private static final int DEADLOCK_ATTEMPTS = 3;

    /**
     * The claim reads at most this many due rows (times the batch size) when checking aggregate order: room for
     * whole runs of the aggregates a batch in flight does not hold.
     */
    static final int ORDERING_SCAN_FACTOR = 2;

    /**
     * Read from the statement's snapshot once a row is leased. Only an outcome changes a claimable row, and
     * only one recorded by a relay whose lease ran out can commit while this statement runs: the lock's
     * recheck then skips the row unless it is due again at once, in which case {@code attempts} here may be
     * one short. So outcomes never lower the count they find (see {@link #MARK_FAILED}). Reading these in the
     * locking step instead made PostgreSQL join the two CTEs row by row (500 x 500 comparisons, 75 ms).
     */
    private static final String CLAIMED_COLUMNS = """
            o.id, o.event_id, o.aggregate_type, o.aggregate_id, o.event_type, o.event_version, o.topic,
            o.payload::text AS payload, o.headers::text AS headers, o.attempts, o.created_at, o.first_failed_at""";

    /**
     * The event may be sent now; in CDC mode the safety net's claim adds the handover for events no relay has claimed
     * yet (see {@link #claimStatement}).
     */
    private static final String DUE = "c.next_attempt_at <= now()";

    /**
     * No earlier event of the candidate's aggregate waits ({@code %s}: the states that hold it back, see
     * {@link #holdingStatuses}); a scalar subquery, which PostgreSQL runs per candidate as an index probe.
     */
    private static final String NOTHING_EARLIER_WAITS = """
            (SELECT earlier.id FROM outbox_unsent earlier
              WHERE earlier.aggregate_key = c.aggregate_key AND earlier.id < c.id AND earlier.status IN (%s)
              LIMIT 1) IS NULL""";

    /** No relay holds the event: no lease, or one that ran out, by the database's clock. */
    private static final String NOT_LEASED = "(c.lease_until IS NULL OR c.lease_until <= now())";

    /**
     * Leases the locked candidates and returns them: one heap-only update of each queue row (no index
     * names the lease; the queue's pages keep room for it, V006). The row lock on each candidate
     * ({@code FOR NO KEY UPDATE}) makes PostgreSQL read it again, and check it again, if another relay's
     * claim or an outcome committed since this statement's snapshot: a lease taken meanwhile or a row gone
     * is skipped, so two relays never both return an event, and one whose lease ran out is taken over.
     * The ids pass from step to step as arrays, not joins: to cost a merge join PostgreSQL looks up the
     * lowest live id in the queue's index, past every entry the drain deleted since the last vacuum, and
     * planning the claim took 8-9 ms instead of 2-3.
     */
    private static final String LEASE_AND_RETURN = """
            leased AS (
                UPDATE outbox_unsent u SET lease_owner = ?, lease_until = now() + ? * interval '1 millisecond',
                       claimed_before = true
                 WHERE u.id = ANY (ARRAY(SELECT id FROM claimable))
                RETURNING u.id)
            SELECT""" + " " + CLAIMED_COLUMNS + """

              FROM outbox_event o WHERE o.id = ANY (ARRAY(SELECT id FROM leased))""";

    /**
     * Claims due rows in id order, from the queue of unsent events, so the claim stays fast however many
     * SENT rows pile up. The locking step is a CTE, so PostgreSQL runs it once whatever plan it picks.
     * Leases are begun, ended and judged by the database's clock ({@code now()}), the one clock every
     * server shares: a server whose clock runs ahead must not take over leases early.
     */
    private static final String CLAIM_UNORDERED = """
            WITH claimable AS (
                SELECT c.id FROM outbox_unsent c
                 WHERE c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """

                 ORDER BY c.id
                 LIMIT %1$d
                 FOR NO KEY UPDATE OF c SKIP LOCKED),
            """ + LEASE_AND_RETURN;

    /**
     * As above, but a row is skipped while an earlier row of its aggregate is still queued and not in the batch
     * (PENDING, leased or in backoff, or IN_FLIGHT from an earlier release; with {@code blockOnDead} also DLT or DEAD),
     * so each aggregate's events reach Kafka in id order. A batch takes up to {@code %4$d} consecutive events of an
     * aggregate, a run, which the relay sends one after another, each once the one before it was acknowledged (see
     * {@link SendLayers}); aggregates are taken in the order of their oldest event, whole runs first, so that a batch
     * in flight holds as few aggregates as it can and the claim made beside it finds the others free.
     * <p>
     * The window holds the oldest waiting rows that are due and not leased, in id order, not in due
     * order: a row given back after its round is due later than the rows its aggregate appended after
     * it, and a window in due order once filled with such followers, every one held back by a row
     * beyond the window, and the relay claimed nothing for good (found by a backlog of 100,000 events
     * of 1,000 aggregates after one round was given back).
     * <p>
     * Which of the window's rows may go is decided in one pass, without a look per row: every queued row
     * of an aggregate that precedes a window row is either in the window itself (due and not leased, so
     * the window's scan took it) or below the window's last id and not claimable now. So the window's rows
     * and the rows the relay cannot take below its end (leased, in backoff, or in CDC mode not handed over
     * yet) are numbered per aggregate in id order, and a window row goes if no row the relay cannot take
     * comes before it and it is among its aggregate's first {@code %4$d}. Its cost is those rows, read in id order
     * from the pending index as the window's are, and one sort of them. Before 2026-12-05 each window row was checked
     * by an index probe of its aggregate for an earlier waiting row.
     * <p>
     * A run's rows are locked with {@code SKIP LOCKED}, like any claim's, so another relay's claim or an outcome
     * may take a row out of a run: its later rows are then not leased either (their locks are kept to the end of
     * the statement, nothing else), or they would go to Kafka ahead of it.
     * <p>
     * The statement is shaped so that no plan can go quadratic, whatever PostgreSQL believes
     * about the table: right after a bulk insert, before autovacuum analyzed it, a NOT EXISTS
     * anti-join and an IN semi-join were planned as nested loops over the whole table (a claim of
     * 500 from 100,000 fresh rows took 30 s; the relay stalled for a minute), and an anti-join of the
     * window with the waiting rows was planned as a nested loop where the statistics said the queue was
     * empty. There is no join with a table: the window's ids, and then the chosen ones, are arrays looked up by
     * primary key, the numbering reads each row once, and the runs are checked against the locked rows by a
     * hashed subquery of at most a batch. With {@code blockOnDead} an earlier dead letter holds an
     * aggregate back too; dead letters can pile up by the thousand, so that one check stays a probe of
     * the aggregate index per chosen row ({@code %3$s}).
     * Rows behind an event waiting for a retry are moved to that retry's time (see
     * {@link #scheduleRetries}), so they do not fill the window.
     */
    private static final String CLAIM_IN_AGGREGATE_ORDER = """
            WITH window_ AS MATERIALIZED (
                SELECT c.id, c.aggregate_key FROM outbox_unsent c
                 WHERE c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """

                 ORDER BY c.id
                 LIMIT %2$d),
            numbered AS (
                SELECT q.id, q.aggregate_key, q.claimable,
                       count(*) FILTER (WHERE NOT q.claimable) OVER aggregate_ AS held_before,
                       row_number() OVER aggregate_ AS place, first_value(q.id) OVER aggregate_ AS oldest
                  FROM (SELECT w.id, w.aggregate_key, true AS claimable FROM window_ w
                        UNION ALL
                        SELECT c.id, c.aggregate_key, false FROM outbox_unsent c
                         WHERE c.status = 'PENDING' AND c.id < (SELECT max(id) FROM window_)
                           AND NOT (""" + DUE + " AND " + NOT_LEASED + """
            )) q
                WINDOW aggregate_ AS (PARTITION BY q.aggregate_key ORDER BY q.id)),
            chosen AS MATERIALIZED (
                SELECT n.id, n.aggregate_key FROM numbered n
                 WHERE n.claimable AND n.held_before = 0 AND n.place <= %4$d
                 ORDER BY n.oldest, n.id
                 LIMIT %1$d),
            locked AS MATERIALIZED (
                SELECT c.id FROM outbox_unsent c
                 WHERE c.id = ANY (ARRAY(SELECT id FROM chosen))
                   AND c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """
            %3$s
                 ORDER BY c.id
                 FOR NO KEY UPDATE OF c SKIP LOCKED),
            claimable AS (
                SELECT r.id FROM (
                    SELECT ch.id, bool_and(ch.id IN (SELECT id FROM locked))
                                      OVER (PARTITION BY ch.aggregate_key ORDER BY ch.id) AS unbroken
                      FROM chosen ch) r
                 WHERE r.unbroken),
            """ + LEASE_AND_RETURN;

    /**
     * The given events still queued, in id order: whether each may be claimed now (waiting, due, not leased) and
     * whether an earlier event of its aggregate waits that is not among them. The caller decides the rest: an
     * event whose earlier one among them is not claimed is held back too.
     */
    private static final String WAITING = """
            SELECT c.id, c.aggregate_key,
                   (c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """
            ) AS ready,
                   (SELECT earlier.id FROM outbox_unsent earlier
                     WHERE earlier.aggregate_key = c.aggregate_key
                       AND earlier.id < c.id
                       AND earlier.status IN (%s)
                       AND NOT earlier.id = ANY (?::bigint[])
                     LIMIT 1) IS NOT NULL AS behind_another
              FROM outbox_unsent c
             WHERE c.id = ANY (?::bigint[])
             ORDER BY c.id""";

    /** Leases the given events that are still claimable (checked again under the row lock) and returns them. */
    private static final String CLAIM_IDS = """
            WITH claimable AS (
                SELECT c.id FROM outbox_unsent c
                 WHERE c.id = ANY (?::bigint[])
                   AND c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """

                 ORDER BY c.id
                 FOR NO KEY UPDATE OF c SKIP LOCKED),
            """ + LEASE_AND_RETURN;

    /**
     * The waiting events of the given aggregates that nothing holds back (see {@link #claimFollowers}): each
     * aggregate's first waiting event ({@code %s}: the holding states), one index probe per aggregate, claimed if it
     * is due and not leased. Filtering every waiting event of the aggregates instead read the whole backlog: with
     * 1,000,000 events of 1,000 aggregates waiting a claim took 7 s (a bitmap scan of all of them and a probe for an
     * earlier event per row), with the heads 17 ms.
     */
    private static final String CLAIM_FOLLOWERS = """
            WITH heads AS MATERIALIZED (
                SELECT head.id FROM unnest(?::bigint[]) AS a(key)
                 CROSS JOIN LATERAL (
                    SELECT e.id FROM outbox_unsent e
                     WHERE e.aggregate_key = a.key AND e.status IN (%s)
                     ORDER BY e.id
                     LIMIT 1) head),
            claimable AS (
                SELECT c.id FROM outbox_unsent c
                 WHERE c.id = ANY (ARRAY(SELECT id FROM heads))
                   AND c.status = 'PENDING' AND""" + " " + DUE + " AND " + NOT_LEASED + """

                   AND""" + " " + NOTHING_EARLIER_WAITS + """
                 ORDER BY c.id
                 LIMIT ?
                 FOR NO KEY UPDATE OF c SKIP LOCKED),
            """ + LEASE_AND_RETURN;

    /**
     * The events of the given ids (the statement's first parameter) whose lease this relay holds, their
     * queue rows gone: a SENT event leaves the queue (this takes its row, and so tells whether the lease is
     * still ours; since V014 the mark writes no outbox row, whose trigger deleted it before). The outcomes
     * that write outbox rows (retries, dead letters, a release, with {@link #MINE}) find them by
     * {@code ARRAY(SELECT id FROM mine)} alone, through the primary key, and take each row's values from their
     * arrays by the row's position in them ({@code array_position}; the SENT mark, the hot path, does not, see
     * {@link #MARK_SENT}): no join with a table, so no join order for PostgreSQL to get wrong. Joined with the
     * arrays, it compared them row by row where it expected one row from each (500 x 500 per batch: 68 ms a mark
     * instead of 31, 350-650 ms with the ids filtering both sides), and where the statistics said the outbox was
     * empty (a vacuum after a mass delete, until autovacuum analyzes it again) it built the join's hash table from
     * the whole outbox, which it believed held one row (41,500 rows and index entries read for a batch of 500;
     * see StaleStatisticsIT). V012 and V013 rid the queue's triggers and the aggregate indexes of the same kind of
     * flaw: a mark of 500 events with 100,000 waiting took 21 s there, now 3-5 ms.
     */
    private static final String MINE_SENT = """
            WITH mine AS (
                DELETE FROM outbox_unsent u WHERE u.id = ANY (?::bigint[]) AND u.lease_owner = ? AND u.status = 'PENDING'
                RETURNING u.id)
            """;

    /** As {@link #MINE_SENT}, for an outcome that keeps the event queued: its lease is cleared. */
    private static final String MINE = """
            WITH mine AS (
                UPDATE outbox_unsent u SET lease_owner = NULL, lease_until = NULL
                 WHERE u.id = ANY (?::bigint[]) AND u.lease_owner = ? AND u.status = 'PENDING'
                RETURNING u.id)
            """;

    /**
     * The published events' records (V014): a narrow row each, where it landed and when; the wide outbox row is not
     * written.
     * <p>
     * Unlike the other outcomes, the records come from the batch's arrays, unnested side by side, kept where their
     * id is among the rows the statement took: a semi-join of two sets of at most a batch each, which never reads a
     * table, so no belief about the tables can make it read more. PostgreSQL hashes the taken ids (custom and
     * generic plans alike); the worst plan it could pick, a nested loop, compares as many pairs as looking each id
     * up by {@code array_position} did, which is a linear search per row: a mark of 500 took 4.2 ms with it and
     * 2.3 ms so, one of 2,000 37 ms and 8 ms (pgbench, 2026-12-07). The ids are unique: one outcome per claimed
     * event.
     * <p>
     * A plain insert: an event still queued has no record, unless someone put it back in the queue by hand after it
     * was published, and for that {@link #MARK_SENT_AGAIN} overwrites. Inserting "or else updating" (PostgreSQL's
     * speculative insertion, which looks the key up first and confirms each row it wrote) took 6.5-7.2 ms for 2,000
     * records where the plain insert takes 3.4-3.6 (psql, 2026-12-07), a tenth of PostgreSQL's time per event drained.
     */
    private static final String MARK_SENT = MINE_SENT + """
            INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)
            SELECT x.id, x.kafka_partition, x.kafka_offset, ?
              FROM unnest(?::bigint[], ?::int[], ?::bigint[]) AS x(id, kafka_partition, kafka_offset)
             WHERE x.id IN (SELECT id FROM mine)""";

    /**
     * {@link #MARK_SENT} for a batch of which an event has a record already (its insert failed, and with it the whole
     * statement): that record is overwritten with where the event landed last.
     */
    private static final String MARK_SENT_AGAIN = MARK_SENT + """

                ON CONFLICT (id) DO UPDATE SET kafka_partition = excluded.kafka_partition,
                   kafka_offset = excluded.kafka_offset, published_at = excluded.published_at""";

    /**
     * Connect mode: the events a Kafka Connect worker published, found on their topics by event id, become SENT
     * where they landed, if nothing recorded an outcome for them yet (their queue rows still wait): their queue rows
     * go and their records are written, as the relay's own mark does. Returns the ids this session could not see at
     * all. The outbox and queue rows are found by an array of ids, with no join, as the outcomes find theirs (see
     * {@link #MINE_SENT}). The records join the rows found with the batch's arrays unnested side by side, and the ids
     * not found are those not in the set found: sets of at most a poll each, which PostgreSQL hashes in custom and
     * generic plans alike, as in {@link #MARK_SENT}. Looked up by {@code array_position}, a linear search per row, a
     * poll of 2,000 records took 91-95 ms to mark, now 21-22 (500: 12-18 and 8-11 ms; 2026-12-07). The event ids are
     * unique ({@link #markLanded} keeps an event's first place).
     */
    private static final String MARK_LANDED = """
            WITH x AS (
                SELECT ?::uuid[] AS event_ids, ?::int[] AS partitions, ?::bigint[] AS offsets, ?::text[] AS landed),
            found AS MATERIALIZED (
                SELECT o.id, o.event_id FROM x CROSS JOIN outbox_event o WHERE o.event_id = ANY (x.event_ids)),
            taken AS (
                DELETE FROM outbox_unsent u WHERE u.id = ANY (ARRAY(SELECT id FROM found)) AND u.status = 'PENDING'
                RETURNING u.id),
            marked AS (
                INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)
                SELECT f.id, l.kafka_partition, l.kafka_offset, l.landed::timestamptz
                  FROM x CROSS JOIN unnest(x.event_ids, x.partitions, x.offsets, x.landed)
                               AS l(event_id, kafka_partition, kafka_offset, landed)
                  JOIN found f ON f.event_id = l.event_id
                 WHERE f.id IN (SELECT id FROM taken)
                    ON CONFLICT (id) DO NOTHING)
            SELECT e.event_id FROM x CROSS JOIN unnest(x.event_ids) AS e(event_id)
             WHERE e.event_id NOT IN (SELECT event_id FROM found)""";

    private static final String SCHEDULE_RETRY = MINE + """
            UPDATE outbox_event o
               SET status = 'PENDING', attempts = o.attempts + 1,
                   next_attempt_at = x.next_ats[array_position(x.ids, o.id)]::timestamptz,
                   last_error = x.errors[array_position(x.ids, o.id)], last_attempt_at = ?,
                   first_failed_at = coalesce(o.first_failed_at, ?), lease_owner = NULL, lease_until = NULL, updated_at = ?
              FROM (SELECT ?::bigint[] AS ids, ?::text[] AS next_ats, ?::text[] AS errors) x
             WHERE o.id = ANY (ARRAY(SELECT id FROM mine)) AND o.status IN ('PENDING', 'IN_FLIGHT')""";

    /** The aggregates of the given events, looked up by the primary key alone (see {@link #HOLD_FOLLOWERS}). */
    private static final String AGGREGATES_OF = """
            SELECT id, aggregate_type, aggregate_id, outbox_relay_aggregate_key(aggregate_type, aggregate_id)
              FROM outbox_event WHERE id = ANY (?::bigint[])""";

    /**
     * The later waiting events of a retrying event's aggregate become due no earlier than it; run once per retry, in
     * one round trip, with the aggregate looked up first ({@link #AGGREGATES_OF}). They are found in the queue, by
     * the aggregate's key and the ids after the retrying one, and their outbox rows by those ids as one array on the
     * primary key: the aggregate's published events, whose outbox rows still say PENDING (V014), are not in the queue
     * and are not touched. "After" is a row comparison on the queue's aggregate index's two columns, so that index's
     * range is the only plan: where the statistics say the queue is empty, PostgreSQL costs every index alike, and
     * given {@code u.id > ?} it read the queue's later events by their id instead, each time (20 million rows and
     * index entries to hold the 19,500 followers of 500 retries; see StaleStatisticsIT). The outbox rows' aggregate
     * is checked too, as two aggregates may share a key.
     */
    private static final String HOLD_FOLLOWERS = """
            UPDATE outbox_event f
               SET next_attempt_at = ?, updated_at = ?
             WHERE f.id = ANY (ARRAY(
                    SELECT u.id FROM outbox_unsent u
                     WHERE u.aggregate_key = ? AND (u.aggregate_key, u.id) > (?, ?) AND u.status = 'PENDING'))
               AND f.aggregate_type = ? AND f.aggregate_id = ?
               AND f.status = 'PENDING' AND f.next_attempt_at < ?""";

    private static final String MARK_FAILED = MINE + """
            UPDATE outbox_event o
               SET status = x.statuses[array_position(x.ids, o.id)],
                   attempts = greatest(o.attempts, x.attempts[array_position(x.ids, o.id)]),
                   last_error = x.errors[array_position(x.ids, o.id)], last_attempt_at = ?,
                   first_failed_at = coalesce(o.first_failed_at, ?), lease_owner = NULL, lease_until = NULL, updated_at = ?
              FROM (SELECT ?::bigint[] AS ids, ?::text[] AS statuses, ?::int[] AS attempts, ?::text[] AS errors) x
             WHERE o.id = ANY (ARRAY(SELECT id FROM mine)) AND o.status IN ('PENDING', 'IN_FLIGHT')""";

    private static final String RELEASE = MINE + """
            UPDATE outbox_event o
               SET status = 'PENDING', next_attempt_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
             WHERE o.id = ANY (ARRAY(SELECT id FROM mine)) AND o.status IN ('PENDING', 'IN_FLIGHT')""";

    /** Gives these leases back, as they were before the claim: the outbox rows were not touched. */
    private static final String UNLEASE =
            "UPDATE outbox_unsent SET lease_owner = NULL, lease_until = NULL WHERE id = ANY (?::bigint[]) AND lease_owner = ?";

    /** Lengthens leases that have not run out yet; returns the rows whose lease it lengthened. */
    private static final String RENEW = """
            UPDATE outbox_unsent SET lease_until = now() + ? * interval '1 millisecond'
             WHERE id = ANY (?::bigint[]) AND lease_owner = ? AND lease_until > now()
            RETURNING id""";

    /** Gives every lease of this relay back; its rows stay due, so the next claim takes them. */
    private static final String RELEASE_ALL =
            "UPDATE outbox_unsent SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?";

    /**
     * One factory for every claimed row's headers: {@code Json.createReader} looks the JSON provider up
     * again at each call, which in the server (OSGi) was a fifth of the relay's CPU while draining.
     */
    private static final JsonReaderFactory JSON = Json.createReaderFactory(Map.of());

    /**
     * What a claim by id took, the aggregates of what it took, and the aggregates of the events it left behind
     * (behind an earlier event of their aggregate, or not claimable now).
     */
    public record IdClaim(List<ClaimedEvent> claimed, Set<Long> claimedAggregates, Set<Long> heldAggregates,
                          List<Long> notVisibleYet) {

        static final IdClaim NOTHING = new IdClaim(List.of(), Set.of(), Set.of(), List.of());
    }

    /** A dead-lettering decision as the store records it. */
    public record Failure(long id, String status, int attempts, String error) {
    }

    @Inject
    RelayConnections connections;

    /**
     * The claim's SQL for batches of {@code limit}; its parameters: the lease owner, the lease in ms. A row is due
     * once its {@code next_attempt_at} has passed; with a {@code handover} (CDC mode's, the change stream's head
     * start; zero when polling) an event no relay has claimed yet only once its {@code next_attempt_at} is that far
     * behind the database's clock. A retry, a replay or an event given back has been claimed before and is not in
     * the stream again, so it goes when due.
     * <p>
     * The limits are written into the statement, not bound: a relay's batch size does not change while it runs,
     * and PostgreSQL keeps one plan for a prepared statement only if that plan does not look costlier than one
     * made for each call's values. With the limits bound it costed the generic plan for a tenth of the queue, so
     * it planned every claim anew: 0.4-0.6 ms of the database's time each, in a stream of small claims about as
     * much as the claim's own work. Written in, a drain's claims keep their plan; but PostgreSQL compares again
     * whenever a vacuum or an analyze of the queue changes its statistics, and in a stream of orders it went back
     * to planning most claims (docs/benchmark.md, "The claim's plan").
     */
    static String claimStatement(Ordering ordering, boolean blockOnDead, int eventsPerAggregate, Duration handover,
                                 int limit) {
        // Locale.ROOT: a default locale with digits of its own would write the limits in them
        String claim = ordering == Ordering.NONE ? String.format(Locale.ROOT, CLAIM_UNORDERED, limit)
                : String.format(Locale.ROOT, CLAIM_IN_AGGREGATE_ORDER, limit, limit * ORDERING_SCAN_FACTOR,
                        blockOnDead ? " AND " + NOTHING_EARLIER_WAITS.formatted("'DLT', 'DEAD'") : "",
                        Math.max(1, eventsPerAggregate));
        return handover.isZero() ? claim
                : claim.replace(DUE, "(" + DUE + " AND (c.claimed_before OR c.next_attempt_at <= now() - interval '"
                        + handover.toMillis() + " milliseconds'))");
    }

    /** The states of an earlier event that hold an event back: waiting, and with {@code blockOnDead} dead-lettered. */
    private static String holdingStatuses(boolean blockOnDead) {
        return blockOnDead ? "'PENDING', 'DLT', 'DEAD'" : "'PENDING'";
    }

    /** The followers' claim's SQL; its parameters: the aggregates' keys, the limit, the lease owner, the lease in ms. */
    static String followersStatement(boolean blockOnDead) {
        String holding = holdingStatuses(blockOnDead);
        return CLAIM_FOLLOWERS.formatted(holding, holding);
    }

    /**
     * Claims due rows for {@code lease}, as the database's clock measures it; with aggregate ordering up to
     * {@code eventsPerAggregate} consecutive events of an aggregate, which must be sent in {@link SendLayers}.
     */
    public List<ClaimedEvent> claim(String owner, Duration lease, int limit, Ordering ordering, boolean blockOnDead,
                                    int eventsPerAggregate, Duration handover) throws SQLException {
        return connections.run(connection -> {
            try (PreparedStatement claim = connection.prepareStatement(
                    claimStatement(ordering, blockOnDead, eventsPerAggregate, handover, limit))) {
                claim.setString(1, owner);
                claim.setLong(2, lease.toMillis());
                return claimed(claim);
            }
        });
    }

    /**
     * Claims the given events, if they are still waiting, due and not leased: what a change stream read from the
     * write-ahead log. An event already SENT (the stream read again after a crash) is not claimed again. With
     * aggregate order, as in the polling claim, a batch takes one event of an aggregate, its first waiting one: sent
     * together, the second could land although Kafka refused the first. The later ones are left behind (the stream
     * takes them once the first is SENT); what is left stays due for the polling relay.
     */
    public IdClaim claimIds(String owner, Duration lease, List<Long> ids, Ordering ordering, boolean blockOnDead)
            throws SQLException {
        if (ids.isEmpty()) {
            return IdClaim.NOTHING;
        }
        return connections.run(connection -> {
            Map<Long, Long> candidates = new LinkedHashMap<>(); // id -> aggregate key
            Set<Long> candidateAggregates = new HashSet<>();
            Set<Long> heldAggregates = new HashSet<>();
            Set<Long> seen = new HashSet<>();
            try (PreparedStatement waiting = connection.prepareStatement(WAITING.formatted(
                    holdingStatuses(blockOnDead)))) {
                java.sql.Array batch = connection.createArrayOf("bigint", ids.toArray());
                waiting.setArray(1, batch);
                waiting.setArray(2, batch);
                try (ResultSet rows = waiting.executeQuery()) {
                    while (rows.next()) { // in id order
                        seen.add(rows.getLong("id"));
                        long aggregate = rows.getLong("aggregate_key");
                        boolean held = ordering == Ordering.AGGREGATE && (rows.getBoolean("behind_another")
                                || heldAggregates.contains(aggregate) || candidateAggregates.contains(aggregate));
                        if (held || !rows.getBoolean("ready")) {
                            heldAggregates.add(aggregate);
                        } else {
                            candidates.put(rows.getLong("id"), aggregate);
                            candidateAggregates.add(aggregate);
                        }
                    }
                }
            }
            List<Long> notVisibleYet = seen.size() == ids.size() ? List.of() : notVisibleYet(connection, ids, seen);
            if (candidates.isEmpty()) {
                return new IdClaim(List.of(), Set.of(), heldAggregates, notVisibleYet);
            }
            List<ClaimedEvent> claimed;
            try (PreparedStatement claim = connection.prepareStatement(CLAIM_IDS)) {
                claim.setArray(1, connection.createArrayOf("bigint", candidates.keySet().toArray()));
                claim.setString(2, owner);
                claim.setLong(3, lease.toMillis());
                claimed = claimed(claim);
            }
            if (ordering == Ordering.AGGREGATE) {
                claimed = behindNoMissing(connection, owner, candidates, claimed, heldAggregates);
            }
            Set<Long> claimedAggregates = new HashSet<>();
            claimed.forEach(event -> claimedAggregates.add(candidates.get(event.id())));
            return new IdClaim(claimed, claimedAggregates, heldAggregates, notVisibleYet);
        });
    }

    /**
     * Of the given events that were not queued, those not SENT either. A queued event leaves the queue when it is
     * SENT, so one that is not queued was SENT, unless its transaction, though it has committed in the write-ahead
     * log (where the change stream read it), was not yet visible to other sessions: PostgreSQL makes a commit
     * visible an instant after it has written it (and may have done so since the queue was read). Such an event
     * must be asked for again, not taken as done.
     */
    private static List<Long> notVisibleYet(Connection connection, List<Long> ids, Set<Long> queued) throws SQLException {
        List<Long> absent = ids.stream().filter(id -> !queued.contains(id)).toList();
        Set<Long> sent = new HashSet<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT id FROM outbox_sent WHERE id = ANY (?::bigint[])"
                        + " UNION ALL SELECT id FROM outbox_event WHERE id = ANY (?::bigint[]) AND status = 'SENT'")) {
            java.sql.Array absentIds = connection.createArrayOf("bigint", absent.toArray());
            query.setArray(1, absentIds);
            query.setArray(2, absentIds);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    sent.add(rows.getLong(1));
                }
            }
        }
        return absent.stream().filter(id -> !sent.contains(id)).toList();
    }

    /**
     * Claims, in aggregate order, the waiting events of the given aggregates (their 64-bit keys) that no earlier
     * event of theirs holds back: after the change stream published an aggregate's event that had come after an
     * event of the same aggregate committed later (ids are taken at insert, the stream follows commits), the
     * event it left behind goes now rather than after the handover.
     */
    public List<ClaimedEvent> claimFollowers(String owner, Duration lease, Set<Long> aggregates, int limit,
                                             boolean blockOnDead) throws SQLException {
        if (aggregates.isEmpty()) {
            return List.of();
        }
        return connections.run(connection -> {
            try (PreparedStatement claim = connection.prepareStatement(followersStatement(blockOnDead))) {
                claim.setArray(1, connection.createArrayOf("bigint", aggregates.toArray()));
                claim.setInt(2, limit);
                claim.setString(3, owner);
                claim.setLong(4, lease.toMillis());
                return claimed(claim);
            }
        });
    }

    /**
     * The claimed events that no unclaimed candidate of their aggregate precedes: a candidate can be taken by the
     * polling relay between the two statements, and what follows it then goes back (its lease cleared) rather
     * than overtake it.
     */
    private static List<ClaimedEvent> behindNoMissing(Connection connection, String owner, Map<Long, Long> candidates,
                                                      List<ClaimedEvent> claimed, Set<Long> heldAggregates)
            throws SQLException {
        if (claimed.size() == candidates.size()) {
            return claimed;
        }
        Set<Long> claimedIds = new HashSet<>();
        claimed.forEach(event -> claimedIds.add(event.id()));
        Map<Long, Long> firstMissing = new HashMap<>(); // aggregate key -> lowest candidate id not claimed
        candidates.forEach((id, aggregate) -> {
            if (!claimedIds.contains(id)) {
                firstMissing.merge(aggregate, id, Math::min);
                heldAggregates.add(aggregate);
            }
        });
        List<ClaimedEvent> kept = new ArrayList<>();
        List<Long> back = new ArrayList<>();
        for (ClaimedEvent event : claimed) {
            Long missing = firstMissing.get(candidates.get(event.id()));
            if (missing != null && missing < event.id()) {
                back.add(event.id());
                heldAggregates.add(candidates.get(event.id()));
            } else {
                kept.add(event);
            }
        }
        if (!back.isEmpty()) {
            try (PreparedStatement unlease = connection.prepareStatement(UNLEASE)) {
                unlease.setArray(1, connection.createArrayOf("bigint", back.toArray()));
                unlease.setString(2, owner);
                unlease.executeUpdate();
            }
        }
        return kept;
    }

    private static List<ClaimedEvent> claimed(PreparedStatement claim) throws SQLException {
        List<ClaimedEvent> claimed = new ArrayList<>();
        try (ResultSet rows = claim.executeQuery()) {
            while (rows.next()) {
                claimed.add(claimedEvent(rows));
            }
        }
        claimed.sort(Comparator.comparingLong(ClaimedEvent::id));
        return claimed;
    }

    public void markSent(String owner, List<Sent> sent, Instant now) throws SQLException {
        if (sent.isEmpty()) {
            return;
        }
        Parameters parameters = (connection, update) -> {
            update.setArray(1, array(connection, "bigint", sent, Sent::id));
            update.setString(2, owner);
            update.setObject(3, utc(now));
            update.setArray(4, array(connection, "bigint", sent, Sent::id));
            update.setArray(5, array(connection, "integer", sent, Sent::partition));
            update.setArray(6, array(connection, "bigint", sent, Sent::offset));
        };
        try {
            update(MARK_SENT, parameters);
        } catch (SQLException recorded) {
            if (!UNIQUE_VIOLATION.equals(recorded.getSQLState())) {
                throw recorded;
            }
            update(MARK_SENT_AGAIN, parameters); // the failed statement took nothing: one transaction, rolled back
        }
    }

    /**
     * Records where records of events landed that someone else published (Kafka Connect): one statement for the
     * batch; an event seen twice keeps its first place, one already SENT (or DLT, DEAD) is left as it is.
     *
     * @return the events of which no row is visible: not committed yet as far as this session sees, or not of
     *         this outbox
     */
    public Set<UUID> markLanded(List<Landed> landed) throws SQLException {
        Map<UUID, Landed> first = new LinkedHashMap<>();
        landed.forEach(record -> first.putIfAbsent(record.eventId(), record));
        if (first.isEmpty()) {
            return Set.of();
        }
        List<Landed> once = List.copyOf(first.values());
        return connections.run(connection -> {
            try (PreparedStatement mark = connection.prepareStatement(MARK_LANDED)) {
                mark.setArray(1, array(connection, "uuid", once, Landed::eventId));
                mark.setArray(2, array(connection, "integer", once, Landed::partition));
                mark.setArray(3, array(connection, "bigint", once, Landed::offset));
                mark.setArray(4, array(connection, "text", once, record -> record.landedAt().toString()));
                Set<UUID> absent = new HashSet<>();
                try (ResultSet rows = mark.executeQuery()) {
                    while (rows.next()) {
                        absent.add(rows.getObject(1, UUID.class));
                    }
                }
                return absent;
            }
        });
    }

    /** An event's record as found on its topic: where it landed and when (the record's timestamp). */
    public record Landed(UUID eventId, int partition, long offset, Instant landedAt) {
    }

    public void scheduleRetries(String owner, List<Retry> retries, Instant now) throws SQLException {
        if (!retries.isEmpty()) {
            update(SCHEDULE_RETRY, (connection, update) -> {
                update.setArray(1, array(connection, "bigint", retries, Retry::id));
                update.setString(2, owner);
                update.setObject(3, utc(now));
                update.setObject(4, utc(now));
                update.setObject(5, utc(now));
                update.setArray(6, array(connection, "bigint", retries, Retry::id));
                update.setArray(7, array(connection, "text", retries, retry -> retry.nextAttemptAt().toString()));
                update.setArray(8, array(connection, "text", retries, Retry::error));
            });
        }
    }

    /**
     * Moves the later PENDING events of each retrying event's aggregate to its retry time: they
     * may not go before it anyway, and this keeps them out of the claim's window meanwhile.
     */
    public void holdFollowers(List<Retry> retries, Instant now) throws SQLException {
        if (!retries.isEmpty()) {
            execute(HOLD_FOLLOWERS, (connection, hold) -> {
                Map<Long, Aggregate> aggregates = new HashMap<>();
                try (PreparedStatement find = connection.prepareStatement(AGGREGATES_OF)) {
                    find.setArray(1, array(connection, "bigint", retries, Retry::id));
                    try (ResultSet rows = find.executeQuery()) {
                        while (rows.next()) {
                            aggregates.put(rows.getLong(1),
                                    new Aggregate(rows.getString(2), rows.getString(3), rows.getLong(4)));
                        }
                    }
                }
                for (Retry retry : retries) {
                    Aggregate aggregate = aggregates.get(retry.id());
                    if (aggregate == null) {
                        continue; // deleted meanwhile: nothing waits for it any more
                    }
                    hold.setObject(1, utc(retry.nextAttemptAt()));
                    hold.setObject(2, utc(now));
                    hold.setLong(3, aggregate.key());
                    hold.setLong(4, aggregate.key());
                    hold.setLong(5, retry.id());
                    hold.setString(6, aggregate.type());
                    hold.setString(7, aggregate.id());
                    hold.setObject(8, utc(retry.nextAttemptAt()));
                    hold.addBatch();
                }
                return Arrays.stream(hold.executeBatch()).sum();
            });
        }
    }

    public void markFailed(String owner, List<Failure> failures, Instant now) throws SQLException {
        if (!failures.isEmpty()) {
            update(MARK_FAILED, (connection, update) -> {
                update.setArray(1, array(connection, "bigint", failures, Failure::id));
                update.setString(2, owner);
                update.setObject(3, utc(now));
                update.setObject(4, utc(now));
                update.setObject(5, utc(now));
                update.setArray(6, array(connection, "bigint", failures, Failure::id));
                update.setArray(7, array(connection, "text", failures, Failure::status));
                update.setArray(8, array(connection, "integer", failures, Failure::attempts));
                update.setArray(9, array(connection, "text", failures, Failure::error));
            });
        }
    }

    /**
     * Gives rows back, due at once, without spending an attempt: Kafka was down, or the round's lease ran short
     * before they were sent.
     */
    public void release(String owner, List<Long> ids, Instant now) throws SQLException {
        if (!ids.isEmpty()) {
            update(RELEASE, (connection, update) -> {
                update.setArray(1, array(connection, "bigint", ids, id -> id));
                update.setString(2, owner);
                update.setObject(3, utc(now));
                update.setObject(4, utc(now));
            });
        }
    }

    /**
     * Lengthens {@code owner}'s leases of these rows by {@code lease} from now, where they have not run out; returns
     * the rows it still holds. A round's dead letters go after its sends were answered, which may have taken most of
     * the lease: given back unsent instead, they would be claimed, fail and be given back again in every round.
     */
    public Set<Long> renewLeases(String owner, List<Long> ids, Duration lease) throws SQLException {
        if (ids.isEmpty()) {
            return new HashSet<>();
        }
        return connections.run(connection -> {
            try (PreparedStatement renew = connection.prepareStatement(RENEW)) {
                renew.setLong(1, lease.toMillis());
                renew.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
                renew.setString(3, owner);
                Set<Long> held = new HashSet<>();
                try (ResultSet rows = renew.executeQuery()) {
                    while (rows.next()) {
                        held.add(rows.getLong(1));
                    }
                }
                return held;
            }
        });
    }

    /** Gives back every lease {@code owner} holds; returns how many. */
    public int releaseAll(String owner) throws SQLException {
        return update(RELEASE_ALL, (connection, update) -> update.setString(1, owner));
    }

    private record Aggregate(String type, String id, long key) {
    }

    @FunctionalInterface
    private interface Parameters {
        void bind(Connection connection, PreparedStatement statement) throws SQLException;
    }

    @FunctionalInterface
    private interface Execution {
        int run(Connection connection, PreparedStatement statement) throws SQLException;
    }

    /**
     * Runs one statement, again if PostgreSQL chose it as a deadlock's victim. An outcome takes queue rows
     * and then updates outbox rows, whose trigger writes queue rows again; another writer of those rows
     * (an operator's statement, a relay that lost its lease recording its outcome) could take them in
     * another order: each then waits for the other, and PostgreSQL aborts one. Run again, the outcome
     * finds the lease taken over (and records nothing, as for any lost lease) or its own (and records it).
     */
    private int update(String sql, Parameters parameters) throws SQLException {
        return execute(sql, (connection, update) -> {
            parameters.bind(connection, update);
            return update.executeUpdate();
        });
    }

    /** As {@link #update}, for a statement that its caller runs (a batch of it, one transaction). */
    private int execute(String sql, Execution execution) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return connections.run(connection -> {
                    try (PreparedStatement statement = connection.prepareStatement(sql)) {
                        return execution.run(connection, statement);
                    }
                });
            } catch (SQLException e) {
                if (!DEADLOCK_DETECTED.equals(e.getSQLState()) || attempt == DEADLOCK_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static <T> java.sql.Array array(Connection connection, String type, List<T> items,
                                            java.util.function.Function<T, Object> column) throws SQLException {
        return connection.createArrayOf(type, items.stream().map(column).toArray());
    }

    private static ClaimedEvent claimedEvent(ResultSet row) throws SQLException {
        return new ClaimedEvent(row.getLong("id"), (UUID) row.getObject("event_id"),
                row.getString("aggregate_type"), row.getString("aggregate_id"), row.getString("event_type"),
                row.getInt("event_version"), row.getString("topic"), row.getString("payload"),
                headers(row.getString("headers")), row.getInt("attempts"),
                row.getObject("created_at", OffsetDateTime.class), row.getObject("first_failed_at", OffsetDateTime.class));
    }

    private static Map<String, String> headers(String json) {
        if (NO_HEADERS.equals(json)) {
            return Map.of(); // most events store none: no parser made per row for them
        }
        Map<String, String> headers = new LinkedHashMap<>();
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            JsonObject object = reader.readObject();
            object.forEach((name, value) -> headers.put(name,
                    value instanceof JsonString text ? text.getString() : value.toString()));
        }
        return headers;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}

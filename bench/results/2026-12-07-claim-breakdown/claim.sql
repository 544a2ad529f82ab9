WITH window_ AS MATERIALIZED (
    SELECT c.id, c.aggregate_key FROM outbox_unsent c
     WHERE c.status = 'PENDING' AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now())
     ORDER BY c.id
     LIMIT 4000),
numbered AS (
    SELECT q.id, q.aggregate_key, q.claimable,
           count(*) FILTER (WHERE NOT q.claimable) OVER aggregate_ AS held_before,
           row_number() OVER aggregate_ AS place, first_value(q.id) OVER aggregate_ AS oldest
      FROM (SELECT w.id, w.aggregate_key, true AS claimable FROM window_ w
            UNION ALL
            SELECT c.id, c.aggregate_key, false FROM outbox_unsent c
             WHERE c.status = 'PENDING' AND c.id < (SELECT max(id) FROM window_)
               AND NOT (c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now()))) q
    WINDOW aggregate_ AS (PARTITION BY q.aggregate_key ORDER BY q.id)),
chosen AS MATERIALIZED (
    SELECT n.id, n.aggregate_key FROM numbered n
     WHERE n.claimable AND n.held_before = 0 AND n.place <= 4
     ORDER BY n.oldest, n.id
     LIMIT 2000),
locked AS MATERIALIZED (
    SELECT c.id FROM outbox_unsent c
     WHERE c.id = ANY (ARRAY(SELECT id FROM chosen))
       AND c.status = 'PENDING' AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now())
     ORDER BY c.id
     FOR NO KEY UPDATE OF c SKIP LOCKED),
claimable AS (
    SELECT r.id FROM (
        SELECT ch.id, bool_and(ch.id IN (SELECT id FROM locked))
                          OVER (PARTITION BY ch.aggregate_key ORDER BY ch.id) AS unbroken
          FROM chosen ch) r
     WHERE r.unbroken),
leased AS (
    UPDATE outbox_unsent u SET lease_owner = 'relay-x', lease_until = now() + 30000 * interval '1 millisecond',
           claimed_before = true
     WHERE u.id = ANY (ARRAY(SELECT id FROM claimable))
    RETURNING u.id)
SELECT o.id, o.event_id, o.aggregate_type, o.aggregate_id, o.event_type, o.event_version, o.topic,
o.payload::text AS payload, o.headers::text AS headers, o.attempts, o.created_at, o.first_failed_at
FROM outbox_event o WHERE o.id = ANY (ARRAY(SELECT id FROM leased))

WITH window_ AS MATERIALIZED (
    SELECT c.id, c.aggregate_key FROM outbox_unsent c
     WHERE c.status = 'PENDING' AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now())
     ORDER BY c.id
     LIMIT 2000),
firsts AS (
    SELECT min(q.id) AS first, min(q.id) FILTER (WHERE q.claimable) AS first_claimable
      FROM (SELECT w.id, w.aggregate_key, true AS claimable FROM window_ w
            UNION ALL
            SELECT c.id, c.aggregate_key, false FROM outbox_unsent c
             WHERE c.status = 'PENDING' AND c.id < (SELECT max(id) FROM window_)
               AND NOT (c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now()))) q
     GROUP BY q.aggregate_key),
claimable AS (
    SELECT c.id FROM outbox_unsent c
     WHERE c.id = ANY (ARRAY(SELECT f.first FROM firsts f WHERE f.first = f.first_claimable))
       AND c.status = 'PENDING' AND c.next_attempt_at <= now() AND (c.lease_until IS NULL OR c.lease_until <= now())
     ORDER BY c.id
     LIMIT 500
     FOR NO KEY UPDATE OF c SKIP LOCKED),
leased AS (
    UPDATE outbox_unsent u SET lease_owner = 'me', lease_until = now() + 60000 * interval '1 millisecond',
           claimed_before = true
     WHERE u.id = ANY (ARRAY(SELECT id FROM claimable))
    RETURNING u.id)
SELECT o.id, o.event_id, o.aggregate_type, o.aggregate_id, o.event_type, o.event_version, o.topic,
       o.payload::text AS payload, o.headers::text AS headers, o.attempts, o.created_at, o.first_failed_at
  FROM outbox_event o WHERE o.id = ANY (ARRAY(SELECT id FROM leased))

-- The queue's triggers (V004) found the queue rows of the events a statement changed by joining its
-- transition table with outbox_unsent. Where the statistics say the queue is empty, which they do after
-- a vacuum of an emptied queue that could not truncate it (a relay's statements hold the table, so
-- vacuum gives the truncation up) and until autovacuum analyzes it again, PostgreSQL planned that join
-- as a nested loop over every queued row: with 100,000 events waiting, one relay's mark of 500 events
-- as SENT took 21 s instead of 13 ms, and the relay crawled just when it had a backlog to catch up on.
-- Now the ids go to the primary key as one array, a plan whose cost is the statement's own rows,
-- whatever PostgreSQL believes about the queue.
CREATE OR REPLACE FUNCTION outbox_relay_queue_written() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM outbox_unsent u WHERE u.id = ANY (ARRAY(SELECT w.id FROM written w WHERE w.status = 'SENT'));
    END IF;
    INSERT INTO outbox_unsent (id, aggregate_key, status, next_attempt_at)
    SELECT w.id, outbox_relay_aggregate_key(w.aggregate_type, w.aggregate_id),
           CASE WHEN w.status IN ('DLT', 'DEAD') THEN w.status ELSE 'PENDING' END, w.next_attempt_at
      FROM written w WHERE w.status <> 'SENT'
        ON CONFLICT (id) DO UPDATE
       SET aggregate_key = excluded.aggregate_key, status = excluded.status, next_attempt_at = excluded.next_attempt_at
     WHERE (outbox_unsent.aggregate_key, outbox_unsent.status, outbox_unsent.next_attempt_at)
           IS DISTINCT FROM (excluded.aggregate_key, excluded.status, excluded.next_attempt_at);
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION outbox_relay_queue_deleted() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    DELETE FROM outbox_unsent u WHERE u.id = ANY (ARRAY(SELECT d.id FROM deleted d WHERE d.status <> 'SENT'));
    RETURN NULL;
END
$$;

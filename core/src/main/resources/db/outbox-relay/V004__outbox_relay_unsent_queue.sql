-- The events still to publish, in a narrow table of their own, so that publishing an event no longer
-- touches an index of the wide outbox row. Until now four partial indexes on outbox_event named its
-- status in their predicates, so marking a row SENT wrote a whole new copy of it and three index
-- entries. Now no index of outbox_event mentions status, and the pages keep half their room free:
-- the mark is a heap-only update, written beside the old copy in the same page, with no index
-- entry at all (a claim and mark of 500 events took 38 ms instead of 62 on a scratch copy of a
-- 200,000-row backlog). The price is disk: outbox_event takes about twice its former space.
-- This migration adds the queue; V005 drops the indexes it replaces.
--
-- outbox_unsent holds one row per event that is not SENT: PENDING (and IN_FLIGHT rows an earlier
-- release left), DLT and DEAD. Statement-level triggers keep it in step with outbox_event for every
-- writer: the application's appends, the relay's outcomes, a replay, retention, an operator's own
-- UPDATE or DELETE, a TRUNCATE, and a server of an earlier release during a rolling upgrade. One call
-- per statement, not per row: a batch of 500 outcomes costs one look at its transition table.
--
-- The aggregate is kept as a 64-bit hash of its type and id: two aggregates with the same hash only
-- wait for each other's earlier events, which never breaks the order of either.
CREATE TABLE IF NOT EXISTS outbox_unsent (
    id               bigint       PRIMARY KEY, -- outbox_event.id
    aggregate_key    bigint       NOT NULL,
    status           varchar(12)  NOT NULL CHECK (status IN ('PENDING', 'DLT', 'DEAD')),
    next_attempt_at  timestamptz  NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_cost_delay = 0);

-- "Is an earlier event of this aggregate still unsent?", the relay's ordering check.
CREATE INDEX IF NOT EXISTS outbox_unsent_aggregate_idx ON outbox_unsent (aggregate_key, id);
-- The claim's window: the events waiting, in id order, past the dead letters that stay queued.
CREATE INDEX IF NOT EXISTS outbox_unsent_pending_idx ON outbox_unsent (id) WHERE status = 'PENDING';
-- The dead letters, for the console and retention.
CREATE INDEX IF NOT EXISTS outbox_unsent_failed_idx ON outbox_unsent (status, id) WHERE status <> 'PENDING';

-- PostgreSQL's own 64-bit text hash, the one hash partitioning uses, which therefore stays the same
-- across upgrades of PostgreSQL (md5 would do too, but a server in FIPS mode refuses it).
CREATE OR REPLACE FUNCTION outbox_relay_aggregate_key(aggregate_type text, aggregate_id text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT hashtextextended(aggregate_type || '/' || aggregate_id, 0) $$;

-- The triggers' functions run as the role that ran this migration (the queue's owner), so a writer
-- needs no rights on outbox_unsent of its own, and find the outbox's tables in the schema this
-- migration ran in, whatever the writer's search_path.
CREATE OR REPLACE FUNCTION outbox_relay_queue_written() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM outbox_unsent u USING written w WHERE u.id = w.id AND w.status = 'SENT';
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
    DELETE FROM outbox_unsent u USING deleted d WHERE u.id = d.id AND d.status <> 'SENT';
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION outbox_relay_queue_truncated() RETURNS trigger LANGUAGE plpgsql
    SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
    TRUNCATE outbox_unsent, outbox_lease;
    RETURN NULL;
END
$$;

-- The triggers take a lock that waits for the application's open transactions on outbox_event and
-- makes its appends wait until this migration commits (the backfill below is one pass over the events
-- not SENT, through the partial index V005 drops): give up after 10 s of waiting rather than stall them.
SET LOCAL lock_timeout = '10s';

DROP TRIGGER IF EXISTS outbox_event_queue_appended ON outbox_event;
CREATE TRIGGER outbox_event_queue_appended AFTER INSERT ON outbox_event
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION outbox_relay_queue_written();
DROP TRIGGER IF EXISTS outbox_event_queue_updated ON outbox_event;
CREATE TRIGGER outbox_event_queue_updated AFTER UPDATE ON outbox_event
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION outbox_relay_queue_written();
DROP TRIGGER IF EXISTS outbox_event_queue_deleted ON outbox_event;
CREATE TRIGGER outbox_event_queue_deleted AFTER DELETE ON outbox_event
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION outbox_relay_queue_deleted();
DROP TRIGGER IF EXISTS outbox_event_queue_truncated ON outbox_event;
CREATE TRIGGER outbox_event_queue_truncated AFTER TRUNCATE ON outbox_event
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_relay_queue_truncated();

-- The backlog as it stands; the triggers above already hold the table, so no append slips between.
INSERT INTO outbox_unsent (id, aggregate_key, status, next_attempt_at)
SELECT id, outbox_relay_aggregate_key(aggregate_type, aggregate_id),
       CASE WHEN status IN ('DLT', 'DEAD') THEN status ELSE 'PENDING' END, next_attempt_at
  FROM outbox_event WHERE status <> 'SENT'
    ON CONFLICT (id) DO NOTHING;

-- Room in every page for the new copy of each of its rows, so that recording an outcome can be a
-- heap-only update once V005 has dropped the indexes that name status. Applies to the pages written
-- from now on; the rows already there keep their pages.
ALTER TABLE outbox_event SET (fillfactor = 50);

SELECT id, aggregate_key, status, next_attempt_at FROM outbox_unsent LIMIT 0;

-- The relay's leases, one narrow row per claimed event, so that a claim no longer rewrites the wide
-- outbox row: an event's row is written twice (appended, then marked with its outcome) instead of
-- three times. A claim inserts the lease (or takes over one that ran out); the outcome deletes it
-- in the statement that records the outcome. A PENDING event with a lease that has not run out is
-- what the console calls IN_FLIGHT. Nothing here reads or rewrites outbox_event, so a populated
-- outbox keeps taking appends and publishing while this runs.
--
-- Rows that a server of an earlier release left IN_FLIGHT (status, lease_owner and lease_until in
-- outbox_event) are still claimed once their lease has run out, as before; this release writes
-- neither the IN_FLIGHT status nor those two columns any more.
--
-- Every event inserts and deletes one lease, so a drain leaves this table full of dead rows: vacuum
-- it after every 10,000 of them, unthrottled, whatever its size (it holds at most a few batches).
CREATE TABLE IF NOT EXISTS outbox_lease (
    id           bigint       PRIMARY KEY, -- outbox_event.id
    lease_owner  varchar(200) NOT NULL,
    lease_until  timestamptz  NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_cost_delay = 0);

-- A relay of an earlier release, still running during a rolling upgrade, would claim an event that a
-- relay of this release holds (it knows nothing of outbox_lease) and publish it a second time, maybe
-- after the aggregate's next event. From now on no row may become IN_FLIGHT, so such a relay's
-- claims fail (it logs the violated constraint and publishes nothing) while its appends, and the
-- outcomes of the rows it already holds, still succeed. NOT VALID: the rows already IN_FLIGHT are
-- not checked, so this scans nothing; it takes the table's lock only for a moment, and gives up
-- rather than queue the application's appends behind a long transaction.
SET LOCAL lock_timeout = '10s';
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'outbox_event_no_new_in_flight'
                                                 AND conrelid = 'outbox_event'::regclass) THEN
        ALTER TABLE outbox_event ADD CONSTRAINT outbox_event_no_new_in_flight CHECK (status <> 'IN_FLIGHT') NOT VALID;
    END IF;
END
$$;

SELECT id, lease_owner, lease_until FROM outbox_lease LIMIT 0;

-- A relay's lease moves into the queue row of the event it holds. Until now a claim locked the queue
-- row, probed outbox_lease for a live lease and inserted one (a heap row and an index entry), and the
-- outcome deleted it again: per event two more writes, and a table whose dead rows the claim's probe
-- had to step over. Now the lease is a heap-only update of the narrow row the claim locks anyway (no
-- index names the lease), and the outcome deletes the row the trigger would have deleted anyway.
--
-- Adding two nullable columns without a default only changes the catalogue: no rewrite, and the lock
-- it takes is held for that moment only (at most 10 s of waiting for it, rather than stall appends).
SET LOCAL lock_timeout = '10s';

ALTER TABLE outbox_unsent ADD COLUMN IF NOT EXISTS lease_owner varchar(200);
ALTER TABLE outbox_unsent ADD COLUMN IF NOT EXISTS lease_until timestamptz;

-- Room in each page for the leased copy of every row it holds: a claim leases runs of consecutive ids,
-- so all the rows of a page at once, each new copy some 40 bytes longer than the row (the owner, the
-- time). At the default fillfactor (100) 95% of the leases in a drain were not heap-only and each
-- inserted three index entries; at 30 all were. New pages only: a queue row lives minutes at most.
ALTER TABLE outbox_unsent SET (fillfactor = 30);

-- A relay of the earlier release, still running during a rolling upgrade, leases in outbox_lease, which
-- this release's relays do not read: both could publish one event. So, as V003 did for the release before
-- it, no lease may be taken there any more: such a relay's claims fail (it logs the violated constraint and
-- publishes nothing), while its appends, and the outcomes of the rows it already holds (which delete their
-- leases), still succeed. NOT VALID: the leases already there are not checked, so this scans nothing.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'outbox_lease_retired'
                                                 AND conrelid = 'outbox_lease'::regclass) THEN
        ALTER TABLE outbox_lease ADD CONSTRAINT outbox_lease_retired CHECK (lease_until IS NULL) NOT VALID;
    END IF;
END
$$;

-- The leases held at this moment go with their rows, so no relay of this release takes an event that one
-- of the earlier release is still publishing. The constraint above keeps their number from growing.
UPDATE outbox_unsent u
   SET lease_owner = l.lease_owner, lease_until = l.lease_until
  FROM outbox_lease l
 WHERE l.id = u.id AND l.lease_until > now() AND u.status = 'PENDING';

SELECT id, lease_owner, lease_until FROM outbox_unsent LIMIT 0;

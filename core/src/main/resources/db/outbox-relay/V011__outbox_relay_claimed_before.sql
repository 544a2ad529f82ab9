-- CDC mode's safety net (the polling claim beside the change stream) leaves an event to the stream for the
-- handover (outbox.cdc.handover-ms), so that the two do not race for what was just appended. The stream brings
-- each appended event once: a retry, a replayed dead letter or an event given back after its lease never comes
-- through it again, and until now waited the handover on top of its backoff. The queue row now says whether a
-- relay has claimed the event before; such an event goes as soon as it is due. The polling mode's claim has no
-- handover and is unchanged.
--
-- A constant default only changes the catalogue: no rewrite, and the lock is held for that moment only.
SET LOCAL lock_timeout = '10s';

ALTER TABLE outbox_unsent ADD COLUMN IF NOT EXISTS claimed_before boolean NOT NULL DEFAULT false;

-- Dead letters were claimed before they were given up on: a replay after this upgrade goes when due too.
UPDATE outbox_unsent SET claimed_before = true WHERE status <> 'PENDING' AND NOT claimed_before;

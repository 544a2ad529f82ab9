-- The relay's leases, one narrow row per claimed event, so that a claim no longer rewrites the wide
-- outbox row: an event's row is written twice (appended, then marked with its outcome) instead of
-- three times. A claim inserts the lease (or takes over one that ran out); the outcome deletes it
-- in the statement that records the outcome. A PENDING event with a lease that has not run out is
-- what the console calls IN_FLIGHT. Creating an empty table takes no lock on outbox_event, so a
-- populated outbox keeps taking appends and publishing while this runs.
--
-- Rows that a server of an earlier release left IN_FLIGHT (status, lease_owner and lease_until in
-- outbox_event) are still claimed once their lease has run out, as before; this release writes
-- neither the IN_FLIGHT status nor those two columns any more.
CREATE TABLE IF NOT EXISTS outbox_lease (
    id           bigint       PRIMARY KEY, -- outbox_event.id
    lease_owner  varchar(200) NOT NULL,
    lease_until  timestamptz  NOT NULL
);

SELECT id, lease_owner, lease_until FROM outbox_lease LIMIT 0;

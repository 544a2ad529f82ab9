-- The aggregate indexes end in id, for the per-aggregate reads in id order. Where the statistics say a
-- table is empty (after a mass delete and a vacuum that could not truncate it, until autovacuum analyzes
-- it again), PostgreSQL costs reading such an index whole, to find rows by id alone, the same as a probe of
-- the primary key, and took it: the relay's mark of 500 events as SENT read all of outbox_event's aggregate
-- index, 152,500 pages and 600-820 ms instead of 10-12 ms, in every round of a drain. Each is rebuilt
-- partial, on a condition every row meets (the column is NOT NULL): PostgreSQL uses a partial index only
-- for a query whose conditions imply its predicate, and any condition on the leading column (the
-- aggregate's type, or its key) implies it is not null, while a lookup by id alone does not. So the
-- per-aggregate reads keep their index, and a lookup by id has the primary key only.
--
-- Built CONCURRENTLY, so a populated outbox keeps taking appends and the relay keeps publishing meanwhile
-- (both pay for the second index until the old one is dropped); Flyway runs a migration that holds only
-- such statements outside a transaction. A run cut short is safe to run again: a new index left behind,
-- built or not, is dropped and built afresh, and the old one goes only once the new one is in place.
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_by_aggregate_idx;
CREATE INDEX CONCURRENTLY outbox_event_by_aggregate_idx ON outbox_event (aggregate_type, aggregate_id, id)
    WHERE aggregate_type IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_aggregate_idx;

DROP INDEX CONCURRENTLY IF EXISTS outbox_unsent_by_aggregate_idx;
CREATE INDEX CONCURRENTLY outbox_unsent_by_aggregate_idx ON outbox_unsent (aggregate_key, id)
    WHERE aggregate_key IS NOT NULL;
DROP INDEX CONCURRENTLY IF EXISTS outbox_unsent_aggregate_idx;

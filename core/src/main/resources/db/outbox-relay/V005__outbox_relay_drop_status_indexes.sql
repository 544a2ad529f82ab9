-- The indexes that the queue of unsent events (V004) replaces. Each names status in its predicate,
-- and while one does, recording an outcome writes a new copy of the row and its index entries instead
-- of a heap-only update. Dropped CONCURRENTLY: the outbox keeps taking appends and being read while
-- this waits for the transactions that may still use them; Flyway runs a migration that holds only
-- such statements outside a transaction.
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_due_idx;
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_waiting_idx;
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_unsent_aggregate_idx;
DROP INDEX CONCURRENTLY IF EXISTS outbox_event_failed_idx;

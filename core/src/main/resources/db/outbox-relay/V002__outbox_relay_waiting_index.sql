-- The relay's ordered claim reads the events still waiting in id order (see RelayStore): an event
-- given back after its round, or whose lease ran out, is due later than the events of its aggregate
-- appended after it, and a window in due order could fill with those followers, all held back by an
-- event the window never reached. Built CONCURRENTLY, so a populated table keeps taking appends
-- meanwhile; Flyway runs a migration that holds only such a statement outside a transaction.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_event_waiting_idx ON outbox_event (id) INCLUDE (next_attempt_at)
    WHERE status IN ('PENDING', 'IN_FLIGHT');

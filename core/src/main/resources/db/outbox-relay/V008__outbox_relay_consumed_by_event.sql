-- An event's story lists the groups that handled it: consumed_event looked up by event id alone, which
-- its primary key (group first) cannot answer. Built CONCURRENTLY, so a populated table keeps taking the
-- consumers' writes meanwhile; Flyway runs a migration that holds only such a statement outside a
-- transaction.
CREATE INDEX CONCURRENTLY IF NOT EXISTS consumed_event_event_idx ON consumed_event (event_id);

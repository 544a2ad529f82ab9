-- The relay's ordering check ("is an earlier event of this aggregate still waiting?") probes
-- only rows that are not SENT, so this index stays as small as the work still to do.
CREATE INDEX outbox_event_unsent_aggregate_idx ON outbox_event (aggregate_type, aggregate_id, id)
    WHERE status <> 'SENT';

-- Where retention moves SENT events instead of deleting them, when an application keeps them for audit
-- (outbox.retention.archive=true; off by default). The same columns as outbox_event, plus when the row
-- was archived; no index the relay needs, and nothing but retention writes it. A new, empty table: this
-- takes no lock any application waits for.
CREATE TABLE IF NOT EXISTS outbox_event_archive (
    id               bigint       PRIMARY KEY, -- outbox_event.id as it was
    event_id         uuid         NOT NULL,
    aggregate_type   varchar(100) NOT NULL,
    aggregate_id     varchar(200) NOT NULL,
    event_type       varchar(200) NOT NULL,
    event_version    integer      NOT NULL,
    topic            varchar(249) NOT NULL,
    payload          jsonb        NOT NULL,
    headers          jsonb        NOT NULL,
    status           varchar(12)  NOT NULL,
    attempts         integer      NOT NULL,
    next_attempt_at  timestamptz  NOT NULL,
    last_error       text,
    last_attempt_at  timestamptz,
    first_failed_at  timestamptz,
    lease_owner      varchar(200),
    lease_until      timestamptz,
    kafka_partition  integer,
    kafka_offset     bigint,
    published_at     timestamptz,
    created_at       timestamptz  NOT NULL,
    updated_at       timestamptz  NOT NULL,
    replay_count     integer      NOT NULL,
    archived_at      timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT outbox_event_archive_event_id_key UNIQUE (event_id)
);

-- The archive's own retention (outbox.retention.archive-days) walks it by age.
CREATE INDEX IF NOT EXISTS outbox_event_archive_archived_at_idx ON outbox_event_archive (archived_at);

SELECT id, event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers, status,
       attempts, next_attempt_at, last_error, last_attempt_at, first_failed_at, lease_owner, lease_until,
       kafka_partition, kafka_offset, published_at, created_at, updated_at, replay_count, archived_at
  FROM outbox_event_archive LIMIT 0;

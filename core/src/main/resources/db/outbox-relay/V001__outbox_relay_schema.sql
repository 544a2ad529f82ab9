-- Outbox Relay's own tables. IF NOT EXISTS: a database whose tables an earlier release (or a DBA
-- applying META-INF/outbox-relay/schema.sql by hand) created is taken over as it is.

-- The outbox: one row per event, written in the business transaction, published by the relay.
CREATE TABLE IF NOT EXISTS outbox_event (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id         uuid         NOT NULL,
    aggregate_type   varchar(100) NOT NULL,
    aggregate_id     varchar(200) NOT NULL,
    event_type       varchar(200) NOT NULL,
    event_version    integer      NOT NULL DEFAULT 1,
    topic            varchar(249) NOT NULL,
    payload          jsonb        NOT NULL,
    headers          jsonb        NOT NULL DEFAULT '{}'::jsonb,
    status           varchar(12)  NOT NULL DEFAULT 'PENDING'
                     CHECK (status IN ('PENDING', 'IN_FLIGHT', 'SENT', 'DLT', 'DEAD')),
    attempts         integer      NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz  NOT NULL DEFAULT now(),
    last_error       text,
    last_attempt_at  timestamptz,
    first_failed_at  timestamptz,
    lease_owner      varchar(200),
    lease_until      timestamptz,
    kafka_partition  integer,
    kafka_offset     bigint,
    published_at     timestamptz,
    created_at       timestamptz  NOT NULL DEFAULT now(),
    updated_at       timestamptz  NOT NULL DEFAULT now(),
    replay_count     integer      NOT NULL DEFAULT 0,
    CONSTRAINT outbox_event_event_id_key UNIQUE (event_id)
);

-- The relay's hot path: only rows that still need work, in the order the claim reads them.
-- SENT, DLT and DEAD rows are not in this index, so a growing history does not slow the claim.
CREATE INDEX IF NOT EXISTS outbox_event_due_idx ON outbox_event (next_attempt_at, id)
    WHERE status IN ('PENDING', 'IN_FLIGHT');

-- Per-aggregate history.
CREATE INDEX IF NOT EXISTS outbox_event_aggregate_idx ON outbox_event (aggregate_type, aggregate_id, id);

-- The relay's ordering check ("is an earlier event of this aggregate still waiting?") probes
-- only rows that are not SENT, so this index stays as small as the work still to do.
CREATE INDEX IF NOT EXISTS outbox_event_unsent_aggregate_idx ON outbox_event (aggregate_type, aggregate_id, id)
    WHERE status <> 'SENT';

-- Operators look at dead letters far more often than at anything else; this index holds only
-- DLT and DEAD rows, so it costs nothing for the events that flow normally.
CREATE INDEX IF NOT EXISTS outbox_event_failed_idx ON outbox_event (status, id) WHERE status IN ('DLT', 'DEAD');

-- Consumers record what they have handled; the unique key is what makes a handler idempotent.
CREATE TABLE IF NOT EXISTS consumed_event (
    consumer_group  varchar(200) NOT NULL,
    event_id        uuid         NOT NULL,
    event_type      varchar(200),
    consumed_at     timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT consumed_event_pkey PRIMARY KEY (consumer_group, event_id)
);

CREATE INDEX IF NOT EXISTS consumed_event_consumed_at_idx ON consumed_event (consumed_at);

-- Every replay, single or bulk: who, when, what, how many. Written in the replay's transaction.
CREATE TABLE IF NOT EXISTS replay_audit (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz  NOT NULL DEFAULT now(),
    actor       varchar(200) NOT NULL,
    action      varchar(20)  NOT NULL CHECK (action IN ('REPLAY_ONE', 'REPLAY_BULK')),
    event_id    uuid,
    filter      jsonb,
    cutoff      timestamptz,
    matched     integer      NOT NULL,
    replayed    integer      NOT NULL
);

CREATE INDEX IF NOT EXISTS replay_audit_event_idx ON replay_audit (event_id) WHERE event_id IS NOT NULL;

-- IF NOT EXISTS takes over a table of the same name: one that is not Outbox Relay's fails the
-- migration here, naming the missing column, rather than the application's first append.
SELECT id, event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers, status,
       attempts, next_attempt_at, last_error, last_attempt_at, first_failed_at, lease_owner, lease_until,
       kafka_partition, kafka_offset, published_at, created_at, updated_at, replay_count
  FROM outbox_event LIMIT 0;
SELECT consumer_group, event_id, event_type, consumed_at FROM consumed_event LIMIT 0;
SELECT id, at, actor, action, event_id, filter, cutoff, matched, replayed FROM replay_audit LIMIT 0;

-- Sample domain: orders and their lines.
CREATE TABLE orders (
    id           uuid PRIMARY KEY,
    customer_id  varchar(100)  NOT NULL,
    status       varchar(20)   NOT NULL CHECK (status IN ('CREATED', 'PAID', 'CANCELLED')),
    total        numeric(14,2) NOT NULL,
    created_at   timestamptz   NOT NULL,
    updated_at   timestamptz   NOT NULL,
    version      bigint        NOT NULL DEFAULT 0
);

CREATE TABLE order_line (
    order_id    uuid          NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no     integer       NOT NULL,
    sku         varchar(64)   NOT NULL,
    quantity    integer       NOT NULL CHECK (quantity > 0),
    unit_price  numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    PRIMARY KEY (order_id, line_no)
);

-- The outbox: one row per event, written in the business transaction, published by the relay.
CREATE TABLE outbox_event (
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
CREATE INDEX outbox_event_due_idx ON outbox_event (next_attempt_at, id)
    WHERE status IN ('PENDING', 'IN_FLIGHT');

-- Per-aggregate history and ordering checks.
CREATE INDEX outbox_event_aggregate_idx ON outbox_event (aggregate_type, aggregate_id, id);

-- Consumers record what they have handled; the unique key is what makes a handler idempotent.
CREATE TABLE consumed_event (
    consumer_group  varchar(200) NOT NULL,
    event_id        uuid         NOT NULL,
    event_type      varchar(200),
    consumed_at     timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT consumed_event_pkey PRIMARY KEY (consumer_group, event_id)
);

CREATE INDEX consumed_event_consumed_at_idx ON consumed_event (consumed_at);

-- The consumer half of an event's story, next to the producer half the outbox row already tells.
--
-- consumed_event learns where the record it was handled from lay in Kafka and how many more deliveries
-- of it the group saw and skipped as duplicates (a redelivery after a crash, a replay of an event the
-- group had in fact handled). Adding nullable columns, and columns with a constant default, changes only
-- the catalogue: no rewrite of a table that may hold millions of rows.
--
-- consumer_dead_letter keeps each record a consumer group gave up on, as the relay keeps its dead letters
-- in outbox_event: the group, the event, where the record lay, the error, the attempts, and the record
-- itself (key, value, headers), so an operator can replay it to that group alone, through the group's own
-- handler, without writing to Kafka (which every group of the topic would read). Its copy on
-- <topic>.<group>.DLT is still written as before.
SET LOCAL lock_timeout = '10s';

ALTER TABLE consumed_event ADD COLUMN IF NOT EXISTS kafka_topic varchar(249);
ALTER TABLE consumed_event ADD COLUMN IF NOT EXISTS kafka_partition integer;
ALTER TABLE consumed_event ADD COLUMN IF NOT EXISTS kafka_offset bigint;
ALTER TABLE consumed_event ADD COLUMN IF NOT EXISTS duplicates integer NOT NULL DEFAULT 0;
ALTER TABLE consumed_event ADD COLUMN IF NOT EXISTS last_duplicate_at timestamptz;

-- status: DEAD_LETTERED (waiting for an operator), REPLAY_REQUESTED (an operator asked; a server running
-- the group's handler takes it), REPLAYING (taken, until replay_until; then another server may take it),
-- REPLAYED (the handler had it, replay_outcome PROCESSED or DUPLICATE). A replay that fails again is
-- DEAD_LETTERED again, with the new error and attempts.
CREATE TABLE IF NOT EXISTS consumer_dead_letter (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    consumer_group   varchar(200)  NOT NULL,
    event_id         uuid,                   -- null when the record carried no valid event id
    event_type       varchar(200),
    topic            varchar(249)  NOT NULL,
    kafka_partition  integer       NOT NULL,
    kafka_offset     bigint        NOT NULL,
    record_key       text,
    payload          text,                   -- the record's value as it came, JSON or not
    headers          jsonb         NOT NULL, -- name -> value (UTF-8 text), the last of each name
    dlt_topic        varchar(249)  NOT NULL,
    error_class      varchar(300)  NOT NULL,
    error_message    text,
    error_stack      text,
    attempts         integer       NOT NULL,
    first_failed_at  timestamptz   NOT NULL,
    last_failed_at   timestamptz   NOT NULL,
    status           varchar(20)   NOT NULL
                     CHECK (status IN ('DEAD_LETTERED', 'REPLAY_REQUESTED', 'REPLAYING', 'REPLAYED')),
    replay_count     integer       NOT NULL DEFAULT 0,
    replay_owner     varchar(200),
    replay_until     timestamptz,
    replayed_at      timestamptz,
    replay_outcome   varchar(20)   CHECK (replay_outcome IN ('PROCESSED', 'DUPLICATE')),
    created_at       timestamptz   NOT NULL DEFAULT now(),
    updated_at       timestamptz   NOT NULL DEFAULT now(),
    -- a record dead-lettered again (redelivered after a crash before its offset was committed) is one row
    CONSTRAINT consumer_dead_letter_record_key UNIQUE (consumer_group, topic, kafka_partition, kafka_offset)
);

CREATE INDEX IF NOT EXISTS consumer_dead_letter_event_idx ON consumer_dead_letter (event_id) WHERE event_id IS NOT NULL;
-- the replays waiting for a server, looked for every second by each server that runs a group's handler
CREATE INDEX IF NOT EXISTS consumer_dead_letter_replay_idx ON consumer_dead_letter (consumer_group, id)
    WHERE status IN ('REPLAY_REQUESTED', 'REPLAYING');
-- the console's triage and the meters: those waiting for an operator, by group, topic and error class
CREATE INDEX IF NOT EXISTS consumer_dead_letter_waiting_idx ON consumer_dead_letter (consumer_group, topic, error_class, id)
    WHERE status = 'DEAD_LETTERED';

-- Replays of consumer dead letters are audited beside the relay's, naming the group they went to.
ALTER TABLE replay_audit ADD COLUMN IF NOT EXISTS consumer_group varchar(200);
ALTER TABLE replay_audit DROP CONSTRAINT IF EXISTS replay_audit_action_check;
ALTER TABLE replay_audit ADD CONSTRAINT replay_audit_action_check
    CHECK (action IN ('REPLAY_ONE', 'REPLAY_BULK', 'CONSUMER_REPLAY_ONE', 'CONSUMER_REPLAY_BULK')) NOT VALID;

SELECT consumer_group, event_id, kafka_topic, kafka_partition, kafka_offset, duplicates, last_duplicate_at
  FROM consumed_event LIMIT 0;
SELECT id, consumer_group, event_id, event_type, topic, kafka_partition, kafka_offset, record_key, payload, headers,
       dlt_topic, error_class, error_message, error_stack, attempts, first_failed_at, last_failed_at, status,
       replay_count, replay_owner, replay_until, replayed_at, replay_outcome, created_at, updated_at
  FROM consumer_dead_letter LIMIT 0;

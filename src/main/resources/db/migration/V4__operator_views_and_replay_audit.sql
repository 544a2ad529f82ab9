-- Operators look at dead letters far more often than at anything else; this index holds only
-- DLT and DEAD rows, so it costs nothing for the events that flow normally.
CREATE INDEX outbox_event_failed_idx ON outbox_event (status, id) WHERE status IN ('DLT', 'DEAD');

-- Every replay, single or bulk: who, when, what, how many. Written in the replay's transaction.
CREATE TABLE replay_audit (
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

CREATE INDEX replay_audit_event_idx ON replay_audit (event_id) WHERE event_id IS NOT NULL;

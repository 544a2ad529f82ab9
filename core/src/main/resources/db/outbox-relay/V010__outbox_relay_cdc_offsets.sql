-- Where the CDC mode's change stream (outbox.publisher=cdc, the cdc module) keeps its position in the
-- write-ahead log: Kafka Connect's offsets as the engine writes them, one row per key, in the database
-- the outbox lives in rather than a file on one server's disk, so the server that streams next (after a
-- crash, a restart, on another host) resumes where the last one acknowledged. A new, empty table.
CREATE TABLE IF NOT EXISTS outbox_cdc_offset (
    engine      varchar(200) NOT NULL, -- the engine's name (outbox.cdc.slot)
    offset_key  bytea        NOT NULL,
    offset_value bytea,
    updated_at  timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (engine, offset_key)
);

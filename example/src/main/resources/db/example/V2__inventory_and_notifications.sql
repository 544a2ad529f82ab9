-- Sample consumers. Reserving stock is naturally not idempotent: applying an event twice
-- reserves twice, which is exactly what the consumed_event log prevents.
CREATE TABLE IF NOT EXISTS inventory_stock (
    sku       varchar(64) PRIMARY KEY,
    reserved  integer     NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS notification (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    uuid         NOT NULL,
    order_id    varchar(200) NOT NULL,
    kind        varchar(200) NOT NULL,
    created_at  timestamptz  NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS notification_order_idx ON notification (order_id);

-- The sample's orders and their lines. IF NOT EXISTS: databases of earlier releases already have them.
CREATE TABLE IF NOT EXISTS orders (
    id           uuid PRIMARY KEY,
    customer_id  varchar(100)  NOT NULL,
    status       varchar(20)   NOT NULL CHECK (status IN ('CREATED', 'PAID', 'CANCELLED')),
    total        numeric(14,2) NOT NULL,
    created_at   timestamptz   NOT NULL,
    updated_at   timestamptz   NOT NULL,
    version      bigint        NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS order_line (
    order_id    uuid          NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    line_no     integer       NOT NULL,
    sku         varchar(64)   NOT NULL,
    quantity    integer       NOT NULL CHECK (quantity > 0),
    unit_price  numeric(12,2) NOT NULL CHECK (unit_price >= 0),
    PRIMARY KEY (order_id, line_no)
);

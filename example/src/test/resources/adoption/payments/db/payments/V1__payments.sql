CREATE TABLE payment (
    id      uuid PRIMARY KEY,
    payer   varchar(100)  NOT NULL,
    amount  numeric(12,2) NOT NULL
);

-- No unique key on purpose: only the consumer's dedup log stands between a redelivery and a second entry.
CREATE TABLE ledger_entry (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payment_id  varchar(200) NOT NULL,
    event_id    uuid         NOT NULL
);

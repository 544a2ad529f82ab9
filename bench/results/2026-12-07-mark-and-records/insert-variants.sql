-- The SENT mark's insert of 2,000 records, three ways, each in a transaction rolled back, alternated three times
-- (psql -f, as the superuser, in the database the relay migrated; outbox_sent held 1,000,000 records):
-- insert or else update (the mark until 2026-12-07), insert where absent, plain insert (the mark since).
CREATE TEMP TABLE src AS SELECT (10000000 + i)::bigint AS id, (i % 12)::int AS p, i::bigint AS o FROM generate_series(1,2000) i;
\timing on
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src
    ON CONFLICT (id) DO UPDATE SET kafka_partition = excluded.kafka_partition, kafka_offset = excluded.kafka_offset,
       published_at = excluded.published_at; ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src x
    WHERE NOT EXISTS (SELECT 1 FROM outbox_sent s WHERE s.id = x.id); ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src; ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src
    ON CONFLICT (id) DO UPDATE SET kafka_partition = excluded.kafka_partition, kafka_offset = excluded.kafka_offset,
       published_at = excluded.published_at; ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src x
    WHERE NOT EXISTS (SELECT 1 FROM outbox_sent s WHERE s.id = x.id); ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src; ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src
    ON CONFLICT (id) DO UPDATE SET kafka_partition = excluded.kafka_partition, kafka_offset = excluded.kafka_offset,
       published_at = excluded.published_at; ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src x
    WHERE NOT EXISTS (SELECT 1 FROM outbox_sent s WHERE s.id = x.id); ROLLBACK;
BEGIN; INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at) SELECT id, p, o, now() FROM src; ROLLBACK;

PREPARE old(uuid[], int[], bigint[], text[]) AS
            WITH x AS (
                SELECT $1::uuid[] AS event_ids, $2::int[] AS partitions, $3::bigint[] AS offsets, $4::text[] AS landed),
            found AS MATERIALIZED (
                SELECT o.id, o.event_id FROM x CROSS JOIN outbox_event o WHERE o.event_id = ANY (x.event_ids)),
            taken AS (
                DELETE FROM outbox_unsent u WHERE u.id = ANY (ARRAY(SELECT id FROM found)) AND u.status = 'PENDING'
                RETURNING u.id),
            marked AS (
                INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)
                SELECT f.id, x.partitions[array_position(x.event_ids, f.event_id)],
                       x.offsets[array_position(x.event_ids, f.event_id)],
                       x.landed[array_position(x.event_ids, f.event_id)]::timestamptz
                  FROM x CROSS JOIN found f WHERE f.id = ANY (ARRAY(SELECT id FROM taken))
                    ON CONFLICT (id) DO NOTHING)
            SELECT e.event_id FROM x CROSS JOIN unnest(x.event_ids) AS e(event_id)
             WHERE e.event_id <> ALL (ARRAY(SELECT event_id FROM found));
PREPARE new(uuid[], int[], bigint[], text[]) AS
            WITH x AS (
                SELECT $1::uuid[] AS event_ids, $2::int[] AS partitions, $3::bigint[] AS offsets, $4::text[] AS landed),
            found AS MATERIALIZED (
                SELECT o.id, o.event_id FROM x CROSS JOIN outbox_event o WHERE o.event_id = ANY (x.event_ids)),
            taken AS (
                DELETE FROM outbox_unsent u WHERE u.id = ANY (ARRAY(SELECT id FROM found)) AND u.status = 'PENDING'
                RETURNING u.id),
            marked AS (
                INSERT INTO outbox_sent (id, kafka_partition, kafka_offset, published_at)
                SELECT f.id, l.kafka_partition, l.kafka_offset, l.landed::timestamptz
                  FROM x CROSS JOIN unnest(x.event_ids, x.partitions, x.offsets, x.landed)
                               AS l(event_id, kafka_partition, kafka_offset, landed)
                  JOIN found f ON f.event_id = l.event_id
                 WHERE f.id IN (SELECT id FROM taken)
                    ON CONFLICT (id) DO NOTHING)
            SELECT e.event_id FROM x CROSS JOIN unnest(x.event_ids) AS e(event_id)
             WHERE e.event_id NOT IN (SELECT event_id FROM found);

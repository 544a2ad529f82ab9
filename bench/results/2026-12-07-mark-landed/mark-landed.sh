#!/usr/bin/env bash
# Connect mode's mark (RelayStore.MARK_LANDED) before and after, on a scratch database, each run in a transaction
# rolled back. Run from the checkout's root against a PostgreSQL of your own (superuser postgres):
#   bench/results/2026-12-07-mark-landed/mark-landed.sh <port> <records per poll>
# statements.sql holds both statements as PREPAREd (old: array_position per row; new: unnested arrays joined).
set -euo pipefail
PORT=$1; N=$2
HERE="$(dirname "$0")"
PSQL="${PSQL:-psql} -X -q -h 127.0.0.1 -p $PORT -U postgres"
export PGPASSWORD="${PGPASSWORD:-postgres}"
$PSQL -d postgres -c "DROP DATABASE IF EXISTS marklanded" -c "CREATE DATABASE marklanded"
for f in core/src/main/resources/db/outbox-relay/V0*.sql; do $PSQL -d marklanded -v ON_ERROR_STOP=1 -f "$f" >/dev/null 2>&1; done
$PSQL -d marklanded -v ON_ERROR_STOP=1 <<SQL
INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, event_version, topic, payload, headers)
SELECT gen_random_uuid(), 'Payment', 'p-' || (g % 1000), 'Paid', 1, 'payments', '{}'::jsonb, '{}'::jsonb
  FROM generate_series(1, 200000) g;
VACUUM ANALYZE;
-- one poll's records: the newest N events and 10 the database does not know, shuffled
CREATE TABLE batch AS
SELECT event_id, (random() * 11)::int AS p, (random() * 1e9)::bigint AS o, now()::text AS t FROM (
  (SELECT event_id FROM outbox_event ORDER BY id DESC LIMIT $N)
  UNION ALL SELECT gen_random_uuid() FROM generate_series(1, 10)) s ORDER BY random();
SQL
for round in 1 2 3 4 5; do
  for which in old new; do
    $PSQL -d marklanded -v ON_ERROR_STOP=1 <<SQL
\\i $HERE/statements.sql
SELECT array_agg(event_id)::text AS ids, array_agg(p)::text AS ps, array_agg(o)::text AS os, array_agg(t)::text AS ts FROM batch \\gset
BEGIN;
\\timing on
CREATE TEMP TABLE absent_$which AS EXECUTE $which(:'ids', :'ps', :'os', :'ts');
\\timing off
-- what it wrote and returned, as digests: the same for both statements
SELECT '$which round $round' AS run, (SELECT count(*) FROM absent_$which) AS absent, (SELECT count(*) FROM outbox_sent) AS sent,
       (SELECT md5(string_agg(id || ':' || kafka_partition || ':' || kafka_offset, ',' ORDER BY id)) FROM outbox_sent) AS records,
       (SELECT md5(string_agg(event_id::text, ',' ORDER BY event_id)) FROM absent_$which) AS absent_ids;
ROLLBACK;
SQL
  done
done
for mode in force_custom_plan force_generic_plan; do
  $PSQL -d marklanded -v ON_ERROR_STOP=1 <<SQL
\\i $HERE/statements.sql
SET plan_cache_mode = $mode;
SELECT array_agg(event_id)::text AS ids, array_agg(p)::text AS ps, array_agg(o)::text AS os, array_agg(t)::text AS ts FROM batch \\gset
BEGIN;
\\echo new, $mode
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE new(:'ids', :'ps', :'os', :'ts');
ROLLBACK;
SQL
done

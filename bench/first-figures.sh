#!/usr/bin/env bash
# First relay figures against a running Outbox Relay (./run in another terminal):
#   1. drain: N PENDING rows (~300-byte payloads, 1,000 aggregates) inserted in one transaction,
#      then the time until the relay has them all SENT (acked by Kafka, acks=all) -> events/s;
#   2. latency: orders created one by one through the API; append->ack (published_at - created_at)
#      percentiles of their OrderCreated events.
# Not a test: it prints figures. The full, comparative benchmark is a separate harness.
# Usage: bench/first-figures.sh [rows=100000] [orders=300]
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS="${1:-100000}"
ORDERS="${2:-300}"
STATE=.devstack
source "$STATE/stack.env"
export PGPASSWORD="$DB_PASSWORD"
API="http://127.0.0.1:${HTTP_PORT:-9080}"
sql() { psql -h "$DB_HOST" -p "$DB_PORT" -U "$DB_USER" -d "$DB_NAME" -qtAX -c "$1"; }

topic="bench.drain.$(date +%s)"
echo "drain: inserting $ROWS rows for topic $topic ..."
sql "INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers)
     SELECT gen_random_uuid(), 'Bench', 'agg-' || (i % 1000), 'BenchEvent', '$topic',
            jsonb_build_object('sequence', i, 'filler', repeat('x', 240)), '{}'::jsonb
       FROM generate_series(1, $ROWS) AS i"
start=$(date +%s.%N)
while [[ "$(sql "SELECT count(*) FROM outbox_event WHERE topic = '$topic' AND status = 'SENT'")" -lt "$ROWS" ]]; do
    sleep 0.5
done
end=$(date +%s.%N)
sql "SELECT 'drain: ' || count(*) || ' events in ' || round(extract(epoch FROM max(published_at) - min(created_at))::numeric, 2)
            || ' s (commit to last ack) = ' || round(count(*) / extract(epoch FROM max(published_at) - min(created_at))::numeric)
            || ' events/s; wall clock seen by this script ' || round(($end - $start)::numeric, 1) || ' s'
       FROM outbox_event WHERE topic = '$topic'"

echo "latency: creating $ORDERS orders one at a time ..."
marker="bench-$(date +%s)"
for i in $(seq 1 "$ORDERS"); do
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
        -d "{\"customerId\": \"$marker\", \"lines\": [{\"sku\": \"SKU-$i\", \"quantity\": 1, \"unitPrice\": 9.99}]}" \
        "$API/api/orders"
done
while [[ "$(sql "SELECT count(*) FROM outbox_event WHERE payload->>'customerId' = '$marker' AND status <> 'SENT'")" -gt 0 ]]; do
    sleep 0.2
done
sql "SELECT 'latency (append to Kafka ack, ms): p50 ' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1)
            || ', p95 ' || round(percentile_cont(0.95) WITHIN GROUP (ORDER BY ms)::numeric, 1)
            || ', p99 ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1)
            || ', max ' || round(max(ms)::numeric, 1) || ' over ' || count(*) || ' events'
       FROM (SELECT extract(epoch FROM published_at - created_at) * 1000 AS ms
               FROM outbox_event WHERE payload->>'customerId' = '$marker') AS samples"

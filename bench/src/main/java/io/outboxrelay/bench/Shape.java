package io.outboxrelay.bench;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The record every contender sends: key = one of {@link #aggregates()} aggregate ids (1,000 unless
 * {@code --aggregates} says otherwise), a ~300-byte JSON payload, and the ten headers Outbox Relay's
 * records carry, so that every contender's records are the same size on the wire.
 */
final class Shape {

    /** How many aggregates the events are spread over, in turn; set once, before any contender runs. */
    private static int aggregates = 1_000;
    static final int PARTITIONS = 6;
    private static final String FILLER = "x".repeat(220);

    private Shape() {
    }

    static int aggregates() {
        return aggregates;
    }

    static void spreadOver(int aggregateCount) {
        if (aggregateCount < 1) {
            throw new IllegalArgumentException("--aggregates must be at least 1");
        }
        aggregates = aggregateCount;
    }

    static String key(long sequence) {
        return "agg-" + (sequence % aggregates);
    }

    /** About 300 bytes; {@code committedAtNanos} lets a consumer measure commit-to-consume latency. */
    static String payload(long sequence, long committedAtMillis) {
        return "{\"sequence\":" + sequence + ",\"committedAt\":" + committedAtMillis + ",\"amount\":"
                + ThreadLocalRandom.current().nextInt(1, 10_000) + ",\"filler\":\"" + FILLER + "\"}";
    }

    /**
     * An event id as Outbox Relay's append makes them, in SQL: a time-ordered UUID (version 7, RFC 9562):
     * the Unix milliseconds, then {@code counterExpression} (12 bits, counting up within a millisecond as
     * the append's counter does), then random bits. With random ids ({@code gen_random_uuid()}, version 4)
     * each insert lands on a random page of the unique index on {@code event_id}: 1,000-row inserts took
     * 30-37 ms instead of 23-28 (pgbench, the shipped schema, one connection), and more the more rows
     * the table holds, which the product's own appends do not pay.
     */
    static String eventIdSql(String counterExpression) {
        return "(lpad(to_hex(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0') || '7'"
                + " || lpad(to_hex((" + counterExpression + ") % 4096), 3, '0') || to_hex(8 + floor(random() * 4)::int)"
                + " || lpad(to_hex(floor(random() * 4096)::int), 3, '0')"
                + " || lpad(to_hex(floor(random() * 281474976710656)::bigint), 12, '0'))::uuid";
    }

    /** The same payload as SQL, for contenders whose rows are inserted by the database itself. */
    static String payloadSql(String sequenceExpression) {
        return "jsonb_build_object('sequence', " + sequenceExpression + ", 'committedAt', 0, 'amount', "
                + "(random() * 10000)::int, 'filler', repeat('x', 220))";
    }

    /** A record of the harness's own producers: key, value and {@link #headers}. */
    static ProducerRecord<String, String> record(String topic, String key, String value) {
        return new ProducerRecord<>(topic, null, key, value, headers(key, UUID.randomUUID().toString()));
    }

    /** As {@link #record(String, String, String)}, with the event id its row holds. */
    static ProducerRecord<String, String> record(String topic, String key, String value, String eventId) {
        return new ProducerRecord<>(topic, null, key, value, headers(key, eventId));
    }

    /**
     * Outbox Relay's headers (CloudEvents binary mode plus {@code id}, {@code aggregate_type},
     * {@code event_version}) for a record of aggregate {@code key} and event {@code eventId}: the bench's
     * aggregate and event type, now. A new instance per record: the producer seals it when sending.
     */
    static Headers headers(String key, String eventId) {
        Headers headers = new RecordHeaders();
        add(headers, "ce_specversion", "1.0");
        add(headers, "ce_id", eventId);
        add(headers, "ce_type", "BenchEvent");
        add(headers, "ce_source", "/outbox-relay");
        add(headers, "ce_subject", key);
        add(headers, "ce_time", DateTimeFormatter.ISO_INSTANT.format(Instant.now()));
        add(headers, "content-type", "application/json");
        add(headers, "id", eventId);
        add(headers, "aggregate_type", "Bench");
        add(headers, "event_version", "1");
        return headers;
    }

    private static void add(Headers headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}

package io.outboxrelay.bench;

import java.util.concurrent.ThreadLocalRandom;

/** The record every contender sends: key = one of 1,000 aggregate ids, a ~300-byte JSON payload. */
final class Shape {

    static final int AGGREGATES = 1_000;
    static final int PARTITIONS = 6;
    private static final String FILLER = "x".repeat(220);

    private Shape() {
    }

    static String key(long sequence) {
        return "agg-" + (sequence % AGGREGATES);
    }

    /** About 300 bytes; {@code committedAtNanos} lets a consumer measure commit-to-consume latency. */
    static String payload(long sequence, long committedAtMillis) {
        return "{\"sequence\":" + sequence + ",\"committedAt\":" + committedAtMillis + ",\"amount\":"
                + ThreadLocalRandom.current().nextInt(1, 10_000) + ",\"filler\":\"" + FILLER + "\"}";
    }

    /** The same payload as SQL, for contenders whose rows are inserted by the database itself. */
    static String payloadSql(String sequenceExpression) {
        return "jsonb_build_object('sequence', " + sequenceExpression + ", 'committedAt', 0, 'amount', "
                + "(random() * 10000)::int, 'filler', repeat('x', 220))";
    }
}

package io.outboxrelay.bench;

/**
 * Outbox Relay's steady latency without the orders API: one {@code outbox_event} row per
 * transaction by plain JDBC, with the {@code NOTIFY outbox_relay} the product's append sends on
 * commit, into a fresh topic, timed from the commit like the other contenders' row writers. The
 * server's relay publishes the rows; no HTTP, JPA or sample consumers are on the path. Steady
 * only: the drain of {@code outbox-relay} already is rows.
 */
final class OutboxRelayRows implements Steady.Capable {

    static final String NAME = "outbox-relay-rows";

    @Override
    public Steady steady(Env env) throws Exception {
        OutboxRelayServer.requireReady(env);
        String topic = env.freshTopic(NAME);
        RowWriter rows = new RowWriter(env, "INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic,"
                + " payload, headers) VALUES (gen_random_uuid(), 'Bench', ?, 'BenchEvent', '" + topic + "', ?::jsonb, '{}'::jsonb)",
                "NOTIFY outbox_relay");
        return rows.steady(topic, "one INSERT into outbox_event (the drain's columns) and NOTIFY outbox_relay per event, each"
                + " its own transaction (" + RateWriter.THREADS + " connections), as the product's append writes and wakes the"
                + " relay; latency from the commit; no HTTP, JPA or sample consumers", () -> {
                });
    }
}

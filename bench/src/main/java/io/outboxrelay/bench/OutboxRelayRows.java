package io.outboxrelay.bench;

/**
 * Outbox Relay's steady latency without the orders API: one {@code outbox_event} row per
 * transaction by plain JDBC, then the {@code NOTIFY outbox_relay} the product's append sends after
 * commits (one at a time, shared by the commits made meanwhile), into a fresh topic, timed from the
 * commit like the other contenders' row writers. The server's relay publishes the rows; no HTTP,
 * JPA or sample consumers are on the path. Steady only: the drain of {@code outbox-relay} already
 * is rows.
 */
final class OutboxRelayRows implements Steady.Capable {

    static final String NAME = "outbox-relay-rows";

    /** How the writer wakes the relay, as the product's append would, and how the report says so. */
    enum Notify {
        /** CDC mode: no relay listens. */
        NONE(""),
        /** One {@code NOTIFY} at a time from one connection, shared by the commits made meanwhile (the append today). */
        COALESCED(", then NOTIFY outbox_relay from one connection, one at a time, shared by the commits made meanwhile,"),
        /** One {@code NOTIFY} after every commit, by the committing thread (the append before 2026-12-03). */
        EACH_COMMIT(", then NOTIFY outbox_relay after each commit on the writer's connection,");

        private final String described;

        Notify(String described) {
            this.described = described;
        }

        /** What follows each commit; null for nothing. */
        RowWriter.AfterCommit afterCommit(Env env) throws Exception {
            return switch (this) {
                case NONE -> null;
                case COALESCED -> new CommitNotifier(env);
                case EACH_COMMIT -> CommitNotifier.EACH_COMMIT;
            };
        }
    }

    private final Notify notify;

    OutboxRelayRows(Notify notify) {
        this.notify = notify;
    }

    @Override
    public Steady steady(Env env) throws Exception {
        OutboxRelayServer.requireReady(env);
        String topic = env.freshTopic(NAME);
        RowWriter rows = new RowWriter(env, "INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic,"
                + " payload, headers) VALUES (" + Shape.eventIdSql("floor(random() * 4096)::int") + ", 'Bench', ?, 'BenchEvent', '"
                + topic + "', ?::jsonb, '{}'::jsonb)",
                notify.afterCommit(env));
        return rows.steady(topic, "one INSERT into outbox_event (the drain's columns) per event, each its own transaction ("
                + RateWriter.THREADS + " connections)" + notify.described + " as the product's append writes"
                + (notify == Notify.NONE ? "" : " and wakes the relay")
                + "; latency from the commit; no HTTP, JPA or sample consumers", () -> {
                });
    }
}

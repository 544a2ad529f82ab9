package io.outboxrelay.bench;

/** One way of getting committed rows to Kafka. Each drain uses a fresh topic. */
interface Contender extends AutoCloseable {

    String name();

    /** What was configured, for the report. */
    String settings();

    /**
     * Commits {@code n} rows (or, for the ceiling, prepares {@code n} records), then measures the
     * time until all {@code n} are acknowledged on the topic. Returns the nanoseconds that took.
     */
    long drain(Env env, int n) throws Exception;

    @Override
    default void close() throws Exception {
    }
}

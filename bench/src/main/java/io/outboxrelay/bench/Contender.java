package io.outboxrelay.bench;

/** One way of getting committed rows to Kafka. Each drain uses a fresh topic. */
interface Contender extends AutoCloseable {

    String name();

    /** What was configured, for the report. */
    String settings();

    /**
     * Commits a backlog of {@code n} rows as {@link Backlog} does (the ceiling instead prepares
     * {@code n} records and sends them) and returns how long from the first insert until all
     * {@code n} were acknowledged on the topic, and until the last of them was committed.
     */
    Backlog.Drained drain(Env env, int n) throws Exception;

    @Override
    default void close() throws Exception {
    }
}

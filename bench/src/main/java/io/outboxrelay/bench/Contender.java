package io.outboxrelay.bench;

/** One way of getting committed rows to Kafka. Each drain uses a fresh topic. */
interface Contender extends AutoCloseable {

    String name();

    /** What was configured, for the report. */
    String settings();

    /**
     * Commits a backlog of {@code n} rows as {@link Backlog} does, timed by {@code timing} where the contender can be
     * held back (the returned {@link Backlog.Drained} says which timing it used), and returns how long until all
     * {@code n} were acknowledged on the topic. The ceiling instead prepares {@code n} records and sends them.
     */
    Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception;

    /** A drain before the counted ones, as {@link #drain}, that leaves nothing in what the contender reports. */
    default Backlog.Drained warmUp(Env env, int n, Backlog.Timing timing) throws Exception {
        return drain(env, n, timing);
    }

    @Override
    default void close() throws Exception {
    }
}

package io.outboxrelay.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A contender running as it would in production: its pipeline is up and waiting, and events are
 * written one at a time, each in its own transaction (the raw producer: each sent). The steady
 * latency figure writes at a fixed rate and times each event from its commit to a consumer.
 */
interface Steady extends AutoCloseable {

    Pattern SEQUENCE = Pattern.compile("\"sequence\"\\s*:\\s*(\\d+)");

    /** Where the events arrive. */
    String topic();

    /** What this contender's writer does for one event, for the report. */
    String writes();

    /** Writes (commits) one event; returns once it is committed, the moment its latency counts from. */
    void write(long sequence) throws Exception;

    /**
     * Waits until the work the writes set in motion besides the measured pipeline has finished (the
     * server's own consumers, say), so that it does not slow the next step; nothing by default.
     */
    default void settle(Env env) throws Exception {
    }

    /** The sequence a record's value carries, or -1 when the record is not one of this run's. */
    default long sequenceOf(String value) {
        Matcher sequence = SEQUENCE.matcher(value == null ? "" : value);
        return sequence.find() ? Long.parseLong(sequence.group(1)) : -1;
    }

    /** One event's write, for {@link #of}. */
    interface Write {
        void write(long sequence) throws Exception;
    }

    /** A steady writer to {@code topic} that writes with {@code write} and closes with {@code close}. */
    static Steady of(String topic, String writes, Write write, AutoCloseable close) {
        return new Steady() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public String writes() {
                return writes;
            }

            @Override
            public void write(long sequence) throws Exception {
                write.write(sequence);
            }

            @Override
            public void close() throws Exception {
                close.close();
            }
        };
    }

    /** A contender that can run steadily. */
    interface Capable {
        Steady steady(Env env) throws Exception;
    }
}

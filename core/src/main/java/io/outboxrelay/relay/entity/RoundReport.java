package io.outboxrelay.relay.entity;

import java.time.Duration;
import java.util.List;

/**
 * What one relay round did, fired after its outcomes were recorded (a CDI event: the relay
 * reports, the metrics and the publish rate listen). {@code path} says how the round found its events;
 * {@code commitToAck} holds, per event Kafka acknowledged, the time from its commit to the acknowledgement;
 * {@code sentAttempts} how many attempts each of them had failed before; {@code marking} how long the one
 * statement that marked them SENT took.
 */
public record RoundReport(Path path, int claimed, Duration duration, List<Duration> commitToAck,
                          List<Integer> sentAttempts, int retried, int deadLettered, int dead, int released,
                          Duration marking) {

    /** How a round found its events. */
    public enum Path {
        /** The polling claim of due rows; in CDC mode, the safety net's, which takes what the stream left. */
        CLAIM,
        /** The ids CDC mode's change stream read from the write-ahead log, and the events they held back. */
        STREAM
    }

    public int sent() {
        return commitToAck.size();
    }
}

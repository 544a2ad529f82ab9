package io.outboxrelay.relay.entity;

import java.time.Duration;
import java.util.List;

/**
 * What one relay round did, fired after its outcomes were recorded (a CDI event: the relay
 * reports, the metrics and the publish rate listen). {@code commitToAck} holds, per event Kafka
 * acknowledged, the time from its commit to the acknowledgement; {@code sentAttempts} how many
 * attempts each of them had failed before; {@code marking} how long the one statement that marked them SENT took.
 */
public record RoundReport(int claimed, Duration duration, List<Duration> commitToAck, List<Integer> sentAttempts,
                          int retried, int deadLettered, int dead, int released, Duration marking) {

    public int sent() {
        return commitToAck.size();
    }
}

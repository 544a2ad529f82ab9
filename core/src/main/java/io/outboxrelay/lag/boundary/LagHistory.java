package io.outboxrelay.lag.boundary;

import io.outboxrelay.lag.entity.LagSample;
import io.outboxrelay.lag.entity.PartitionLag;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The lag snapshots of the last {@code outbox.lag.history-minutes} (60), kept by this server in memory, so the
 * console's charts open with the last hour rather than start empty at each reload. One sample per snapshot
 * ({@code outbox.lag.refresh-ms}, 10 s: 360 an hour); a server's restart starts its history afresh.
 */
@ApplicationScoped
public class LagHistory {

    @Inject
    PublishRate publishRate;

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.lag.history-minutes", defaultValue = "60")
    long historyMinutes;

    private final Deque<LagSample> samples = new ArrayDeque<>();

    void onLagMeasured(@Observes LagSnapshot.Figures figures) {
        Map<String, Long> consumerLag = new TreeMap<>();
        for (PartitionLag partition : figures.consumers()) {
            consumerLag.merge(partition.group() + " · " + partition.topic(), partition.lag(), Long::sum);
        }
        record(new LagSample(figures.takenAt(), figures.oldestPendingAgeSeconds(), publishRate.perSecond(),
                Map.copyOf(consumerLag)));
    }

    /** Adds a sample and forgets those older than the history's span. */
    synchronized void record(LagSample sample) {
        samples.addLast(sample);
        forgetOlderThan(clock.instant().minus(Duration.ofMinutes(historyMinutes)));
    }

    /** The samples of the history's span, oldest first. */
    public synchronized List<LagSample> samples() {
        forgetOlderThan(clock.instant().minus(Duration.ofMinutes(historyMinutes)));
        return List.copyOf(samples);
    }

    private void forgetOlderThan(Instant cutoff) {
        while (!samples.isEmpty() && samples.peekFirst().takenAt().isBefore(cutoff)) {
            samples.removeFirst();
        }
    }
}

package io.outboxrelay.relay.boundary;

import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * Whether Kafka as a whole is unreachable. While it is, the relay claims nothing and only
 * probes the cluster, with capped exponential backoff; it logs once when an outage starts and
 * once when it ends, never per event.
 */
@ApplicationScoped
public class OutageGate {

    private static final Logger LOG = Logger.getLogger(OutageGate.class.getName());

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    RelaySettings settings;

    private Instant since;
    private int failedProbes;
    private Instant nextProbeAt;

    public synchronized boolean inOutage() {
        return since != null;
    }

    /** True when the relay should ask the cluster again before claiming anything. */
    public synchronized boolean probeDue() {
        return since != null && !clock.instant().isBefore(nextProbeAt);
    }

    public synchronized void unreachable(String reason) {
        Instant now = clock.instant();
        if (since == null) {
            since = now;
            failedProbes = 0;
            LOG.warning(() -> "Kafka unreachable (" + reason + "): the relay pauses and retries; no event spends an attempt");
        }
        failedProbes++;
        Duration wait = settings.outageBackoff().delay(failedProbes, ThreadLocalRandom.current()::nextDouble);
        nextProbeAt = now.plus(wait);
    }

    public synchronized void reachable() {
        if (since != null) {
            Duration outage = Duration.between(since, clock.instant());
            LOG.info(() -> "Kafka reachable again after " + outage.toSeconds() + " s; the relay resumes publishing");
            since = null;
            failedProbes = 0;
        }
    }
}

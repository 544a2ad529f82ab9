package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayRound;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Publishes the events a change stream read from the write-ahead log (CDC mode), by id, through the relay's own
 * round: the same records, the same outcomes. What cannot go now (already SENT, behind an earlier event of its
 * aggregate that waits, not due, or given back when its lease ran short) stays due for the polling relay.
 */
@ApplicationScoped
public class StreamPublisher {

    private static final Duration OUTAGE_CHECK = Duration.ofMillis(200);

    @Inject
    RelayRound round;

    @Inject
    OutageGate outage;

    @Inject
    RelaySettings settings;

    /**
     * Returns once each event is SENT, dead-lettered, scheduled for a retry or left to the polling relay; while
     * Kafka is down, not before it answers again (what follows could not go before these anyway) or
     * {@code closing} opens, which throws.
     */
    public void publish(List<Long> ids, CountDownLatch closing) throws InterruptedException, SQLException {
        String owner = settings.instanceId() + "#cdc";
        List<Long> pending = ids;
        while (!pending.isEmpty()) {
            Optional<RelayRound.Flight> flight = round.launch(owner, pending);
            if (flight.isPresent()) {
                pending = round.landGivingBack(flight.get());
            }
            if (pending.isEmpty() || !outage.inOutage()) {
                return;
            }
            if (closing.await(OUTAGE_CHECK.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new InterruptedException("the change stream closes while Kafka is down");
            }
        }
    }
}

package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayRound;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Publishes the events a change stream read from the write-ahead log (CDC mode), by id, through the relay's own
 * round: the same records, the same outcomes. What cannot go now (already SENT, behind an earlier event of its
 * aggregate that waits, not due, or given back when its lease ran short) stays due for the polling relay.
 * <p>
 * The stream reads a commit from the write-ahead log an instant before PostgreSQL makes it visible to other
 * sessions: an event this cannot see yet is asked for again a few milliseconds later, not taken for SENT.
 * The stream follows commits, the ids follow inserts: an event committed before an earlier event of its aggregate
 * is left behind it. This remembers such aggregates, and once the stream has published an event of one, takes the
 * events it left behind at once rather than after the polling relay's handover.
 */
@ApplicationScoped
public class StreamPublisher {

    private static final Duration OUTAGE_CHECK = Duration.ofMillis(200);
    /** A commit the stream read is visible to other sessions an instant later: looked for again this often. */
    private static final Duration VISIBILITY_CHECK = Duration.ofMillis(5);
    private static final int MOST_VISIBILITY_CHECKS = 200;
    private static final Logger LOG = Logger.getLogger(StreamPublisher.class.getName());
    /** More aggregates with an event left behind than this, and the rest wait for the polling relay. */
    private static final int MOST_REMEMBERED = 100_000;
    /** Each round takes the next event of each aggregate; what is left after these waits for the polling relay. */
    private static final int MOST_FOLLOWER_ROUNDS = 100;

    @Inject
    RelayRound round;

    @Inject
    OutageGate outage;

    @Inject
    RelaySettings settings;

    private final Set<Long> leftBehind = ConcurrentHashMap.newKeySet();

    /**
     * Returns once each event is SENT, dead-lettered, scheduled for a retry or left to the polling relay; while
     * Kafka is down, not before it answers again (what follows could not go before these anyway) or
     * {@code closing} opens, which throws.
     */
    public void publish(List<Long> ids, CountDownLatch closing) throws InterruptedException, SQLException {
        String owner = owner();
        Set<Long> published = new HashSet<>();
        List<Long> pending = ids;
        int visibilityChecks = 0;
        while (true) {
            RelayRound.StreamLaunch launch = round.launch(owner, pending);
            remember(launch.heldAggregates());
            List<Long> again = new ArrayList<>();
            if (launch.flight().isPresent()) {
                published.addAll(launch.claimedAggregates());
                List<Long> givenBack = round.landGivingBack(launch.flight().get());
                if (outage.inOutage()) {
                    again.addAll(givenBack);
                }
            } else if (outage.inOutage()) {
                again.addAll(pending); // nothing claimed: Kafka is down
            }
            if (!launch.notVisibleYet().isEmpty()) {
                if (++visibilityChecks <= MOST_VISIBILITY_CHECKS) {
                    again.addAll(launch.notVisibleYet());
                } else {
                    LOG.warning(() -> launch.notVisibleYet().size() + " streamed event(s) still not visible after "
                            + MOST_VISIBILITY_CHECKS * VISIBILITY_CHECK.toMillis() + " ms: left to the polling relay");
                }
            }
            if (again.isEmpty()) {
                break;
            }
            Duration wait = outage.inOutage() ? OUTAGE_CHECK : VISIBILITY_CHECK;
            if (closing.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new InterruptedException("the change stream closes while its batch waits");
            }
            pending = again;
        }
        published.retainAll(leftBehind);
        if (!published.isEmpty()) {
            leftBehind.removeAll(published);
            publishFollowers(owner, published);
        }
    }

    /** The events of these aggregates that the stream left behind and nothing holds back any more, in order. */
    private void publishFollowers(String owner, Set<Long> aggregates) throws InterruptedException, SQLException {
        for (int round = 0; round < MOST_FOLLOWER_ROUNDS; round++) {
            Optional<RelayRound.Flight> flight = this.round.launchFollowers(owner, aggregates);
            if (flight.isEmpty()) {
                return;
            }
            this.round.landGivingBack(flight.get());
        }
    }

    private void remember(Set<Long> aggregates) {
        if (settings.ordering() == RelaySettings.Ordering.AGGREGATE && leftBehind.size() < MOST_REMEMBERED) {
            leftBehind.addAll(aggregates);
        }
    }

    private String owner() {
        return settings.instanceId() + "#cdc";
    }
}

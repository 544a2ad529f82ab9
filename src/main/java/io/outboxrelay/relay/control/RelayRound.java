package io.outboxrelay.relay.control;

import io.outboxrelay.kafka.control.KafkaAdmin;
import io.outboxrelay.relay.control.Outcomes.Decision;
import io.outboxrelay.relay.control.Outcomes.DeadLetter;
import io.outboxrelay.relay.control.RelayStore.Failure;
import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.relay.entity.PublishResult.Acked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;

/**
 * One pass of the relay for one lease owner: claim a batch, publish it, dead-letter what must
 * be, and record every outcome with one statement per kind.
 */
@ApplicationScoped
public class RelayRound {

    private static final Logger LOG = Logger.getLogger(RelayRound.class.getName());
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

    @Inject
    RelayStore store;

    @Inject
    EventPublisher publisher;

    @Inject
    RelaySettings settings;

    @Inject
    OutageGate outage;

    @Inject
    KafkaAdmin kafkaAdmin;

    @Inject
    Clock clock;

    @Inject
    jakarta.enterprise.event.Event<io.outboxrelay.relay.entity.EventsPublished> published;

    /** Runs one round; returns how many rows it claimed (0 when idle or Kafka is down). */
    public int run(String owner) throws SQLException, InterruptedException {
        if (outage.inOutage()) {
            if (!outage.probeDue()) {
                return 0;
            }
            if (!clusterReachable()) {
                return 0;
            }
        }
        Instant now = clock.instant();
        List<ClaimedEvent> claimed = store.claim(owner, now, now.plus(settings.lease()), settings.batchSize(),
                settings.ordering(), settings.blockOnDead());
        if (claimed.isEmpty()) {
            return 0;
        }
        Map<Long, ProducerRecord<String, byte[]>> records = new LinkedHashMap<>();
        claimed.forEach(event -> records.put(event.id(), KafkaRecords.of(event, settings.cloudEventsSource())));
        Set<Long> failedBefore = claimed.stream().filter(event -> event.attempts() > 0)
                .map(ClaimedEvent::id).collect(Collectors.toSet());
        Map<Long, PublishResult> results = publisher.publish(records, failedBefore);

        Instant done = clock.instant();
        Decision decision = new Outcomes(settings.maxAttempts(), settings.retryBackoff())
                .decide(claimed, results, done, this::clusterReachable, ThreadLocalRandom.current()::nextDouble);
        store.markSent(owner, decision.sent(), done);
        if (!decision.sent().isEmpty()) {
            published.fire(new io.outboxrelay.relay.entity.EventsPublished(decision.sent().size()));
        }
        store.scheduleRetries(owner, decision.retries(), done);
        if (settings.ordering() == RelaySettings.Ordering.AGGREGATE) {
            store.holdFollowers(decision.retries(), done);
        }
        deadLetter(owner, decision.deadLetters());
        store.release(owner, decision.released(), done, done);
        if (!decision.outage() && !decision.sent().isEmpty()) {
            outage.reachable();
        }
        return claimed.size();
    }

    /** Publishes to {@code <topic>.DLT}; rows whose dead letter was acked become DLT, the others DEAD. */
    private void deadLetter(String owner, List<DeadLetter> deadLetters) throws SQLException, InterruptedException {
        if (deadLetters.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        Map<Long, ProducerRecord<String, byte[]>> records = new LinkedHashMap<>();
        deadLetters.forEach(letter -> records.put(letter.event().id(), KafkaRecords.deadLetter(letter.event(),
                settings.cloudEventsSource(), letter.error(), letter.attempts(), now)));
        Map<Long, PublishResult> results = publisher.publish(records);
        List<Failure> failures = new ArrayList<>();
        List<Long> released = new ArrayList<>();
        java.util.function.BooleanSupplier kafkaDown = memoized(() -> !clusterReachable());
        for (DeadLetter letter : deadLetters) {
            ClaimedEvent event = letter.event();
            String reason = Outcomes.describe(letter.error());
            String dlt = event.topic() + KafkaRecords.DLT_SUFFIX;
            if (results.get(event.id()) instanceof Acked acked) {
                failures.add(new Failure(event.id(), "DLT", letter.attempts(), reason));
                LOG.warning(() -> "Event " + event.eventId() + " dead-lettered to " + dlt + " (partition "
                        + acked.partition() + ", offset " + acked.offset() + ") after " + letter.attempts()
                        + " attempt(s): " + reason);
            } else if (FailureKind.of(((PublishResult.Failed) results.get(event.id())).error()) == FailureKind.AMBIGUOUS
                    && kafkaDown.getAsBoolean()) {
                released.add(event.id()); // not the event's fault: it comes back after the outage
            } else {
                PublishResult.Failed failed = (PublishResult.Failed) results.get(event.id());
                String why = reason + "; dead-letter topic " + dlt + " failed too: "
                        + Outcomes.describe(FailureKind.unwrap(failed.error()));
                failures.add(new Failure(event.id(), "DEAD", letter.attempts(), why));
                LOG.severe(() -> "Event " + event.eventId() + " is DEAD: " + why);
            }
        }
        store.markFailed(owner, failures, clock.instant());
        store.release(owner, released, clock.instant(), clock.instant());
    }

    /** Asks at most once, and only if asked. */
    private static java.util.function.BooleanSupplier memoized(java.util.function.BooleanSupplier question) {
        Boolean[] answer = new Boolean[1];
        return () -> {
            if (answer[0] == null) {
                answer[0] = question.getAsBoolean();
            }
            return answer[0];
        };
    }

    /** Asks the cluster who it is; records the answer in the outage gate. */
    private boolean clusterReachable() {
        try {
            kafkaAdmin.describeCluster(PROBE_TIMEOUT);
            outage.reachable();
            return true;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception unreachable) {
            outage.unreachable(String.valueOf(FailureKind.unwrap(unreachable).getMessage()));
            return false;
        }
    }
}

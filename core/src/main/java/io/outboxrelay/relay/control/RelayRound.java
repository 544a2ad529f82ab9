package io.outboxrelay.relay.control;

import io.outboxrelay.kafka.boundary.KafkaAdmin;
import io.outboxrelay.relay.boundary.OutageGate;
import io.outboxrelay.relay.boundary.RelayHeartbeat;
import io.outboxrelay.relay.boundary.RelaySettings;
import io.outboxrelay.relay.control.Outcomes.DeadLetter;
import io.outboxrelay.relay.control.Outcomes.Decision;
import io.outboxrelay.relay.control.RelayStore.Failure;
import io.outboxrelay.relay.entity.ClaimReport;
import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.relay.entity.PublishResult.Acked;
import io.outboxrelay.relay.entity.RoundReport;
import io.outboxrelay.relay.entity.RoundReport.Path;
import io.outboxrelay.time.OutboxClock;
import io.outboxrelay.tracing.boundary.Tracing;
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
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import java.util.stream.Collectors;

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
    @OutboxClock
    Clock clock;

    @Inject
    jakarta.enterprise.event.Event<RoundReport> reports;

    @Inject
    jakarta.enterprise.event.Event<ClaimReport> claims;

    @Inject
    RelayHeartbeat heartbeat;

    @Inject
    InstanceClaim instance;

    @Inject
    Tracing tracing;

    /** Runs one round; returns how many rows it claimed (0 when idle, Kafka is down or another relay has our id). */
    public int run(String owner) throws SQLException, InterruptedException {
        Optional<Flight> flight = launch(owner);
        return flight.isPresent() ? land(flight.get()) : 0;
    }

    /**
     * The first half of a round: claims a batch and hands its records to the producer without waiting
     * for Kafka; with aggregate ordering only the first event of each aggregate in it, the next ones follow
     * each other's acknowledgements while the batch lands ({@link SendLayers}). Empty when there is nothing to
     * claim, Kafka is down or another relay has our id. Another batch may be launched while this one is in
     * flight: with aggregate ordering the claim skips every aggregate with a row in flight, so two batches never
     * hold events of one aggregate.
     */
    public Optional<Flight> launch(String owner) throws SQLException {
        return launch(owner, Path.CLAIM, () -> store.claim(owner, settings.lease(), settings.batchSize(),
                settings.ordering(), settings.blockOnDead(), settings.eventsPerAggregate(), settings.handover()));
    }

    /**
     * As {@link #launch(String)}, for the given events only: those a change stream read from the write-ahead
     * log. The ones not claimable now (already SENT, behind an earlier event of their aggregate, not due) are
     * left to the polling relay.
     */
    public StreamLaunch launch(String owner, List<Long> ids) throws SQLException {
        RelayStore.IdClaim[] claim = {RelayStore.IdClaim.NOTHING};
        Optional<Flight> flight = launch(owner, Path.STREAM, () -> {
            claim[0] = store.claimIds(owner, settings.lease(), ids, settings.ordering(), settings.blockOnDead());
            return claim[0].claimed();
        });
        return new StreamLaunch(flight, claim[0].claimedAggregates(), claim[0].heldAggregates(),
                claim[0].notVisibleYet());
    }

    /**
     * A launch by id, with the aggregates it took events of, those of the events it left behind, and the events it
     * could not see yet (committed, but not yet visible to other sessions).
     */
    public record StreamLaunch(Optional<Flight> flight, Set<Long> claimedAggregates, Set<Long> heldAggregates,
                               List<Long> notVisibleYet) {
    }

    /** As {@link #launch(String)}, for the events of these aggregates that nothing holds back any more. */
    public Optional<Flight> launchFollowers(String owner, Set<Long> aggregates) throws SQLException {
        return launch(owner, Path.STREAM, () -> store.claimFollowers(owner, settings.lease(), aggregates,
                settings.batchSize(), settings.blockOnDead()));
    }

    @FunctionalInterface
    private interface Claim {
        List<ClaimedEvent> claim() throws SQLException;
    }

    private Optional<Flight> launch(String owner, Path path, Claim claim) throws SQLException {
        heartbeat.beat();
        if (!instance.held(settings.instanceId())) {
            return Optional.empty();
        }
        if (outage.inOutage()) {
            if (!outage.probeDue()) {
                return Optional.empty();
            }
            if (!clusterReachable()) {
                return Optional.empty();
            }
        }
        long started = System.nanoTime(); // no later than the lease begins in the database
        List<ClaimedEvent> claimed = claim.claim();
        claims.fire(new ClaimReport(path, claimed.size(), Duration.ofNanos(System.nanoTime() - started)));
        if (claimed.isEmpty()) {
            return Optional.empty();
        }
        Map<Long, ProducerRecord<String, byte[]>> records = new LinkedHashMap<>();
        KafkaRecords.Batch batch = new KafkaRecords.Batch(settings.cloudEventsSource());
        claimed.forEach(event -> records.put(event.id(), batch.of(event)));
        PublishSpans spans = PublishSpans.start(tracing, claimed, records);
        Set<Long> failedBefore = claimed.stream().filter(event -> event.attempts() > 0)
                .map(ClaimedEvent::id).collect(Collectors.toSet());
        SendWindow window = SendWindow.opening(started, settings.lease(), publisher.landingBound(), System::nanoTime);
        SendLayers layers = settings.ordering() == RelaySettings.Ordering.AGGREGATE ? SendLayers.of(claimed)
                : SendLayers.together(records.keySet());
        return Optional.of(new Flight(owner, path, claimed, publisher.send(records, failedBefore, window, layers),
                spans, started));
    }

    /**
     * The second half: waits for Kafka's answers, dead-letters what must be, and records every outcome
     * with one statement per kind. Returns how many rows the batch held.
     */
    public int land(Flight flight) throws SQLException, InterruptedException {
        return landing(flight).size();
    }

    /**
     * As {@link #land}; returns the ids of the rows given back without an attempt spent (Kafka was down, or the
     * lease ran short before they were sent), which are due again at once.
     */
    public List<Long> landGivingBack(Flight flight) throws SQLException, InterruptedException {
        return landing(flight).givenBack();
    }

    private record Landed(int size, List<Long> givenBack) {
    }

    private Landed landing(Flight flight) throws SQLException, InterruptedException {
        String owner = flight.owner();
        List<ClaimedEvent> claimed = flight.claimed();
        Map<Long, PublishResult> results = publisher.complete(flight.sending());
        flight.spans().end(results);

        Instant done = clock.instant();
        Outcomes outcomes = new Outcomes(settings.maxAttempts(), settings.retryBackoff());
        Decision decision = outcomes.decide(claimed, results, done, () -> answeredThroughout(flight.sending()),
                ThreadLocalRandom.current()::nextDouble);
        long marking = System.nanoTime();
        store.markSent(owner, decision.sent(), done);
        Duration marked = Duration.ofNanos(System.nanoTime() - marking);
        List<Long> givenBack = new ArrayList<>(decision.released());
        givenBack.addAll(decision.unsent());
        // before the retries: a retry moves its aggregate's later events to its own time, among them events of this
        // batch not sent because it failed; given back after it, they would be due at once and, held back behind it,
        // fill the claim's window
        store.release(owner, givenBack, done);
        retry(owner, decision.retries(), done);
        Outcomes.DeadLetterDecision lettered = deadLetter(owner, outcomes, decision.deadLetters());
        if (!decision.outage() && !decision.sent().isEmpty()) {
            outage.reachable();
        }
        report(flight.path(), claimed, decision, lettered, done, Duration.ofNanos(System.nanoTime() - flight.started()),
                marked);
        givenBack.addAll(lettered.released());
        return new Landed(claimed.size(), givenBack);
    }

    /** Schedules the retries and, with aggregate ordering, holds their aggregates' later events until then. */
    private void retry(String owner, List<Outcomes.Retry> retries, Instant now) throws SQLException {
        store.scheduleRetries(owner, retries, now);
        if (settings.ordering() == RelaySettings.Ordering.AGGREGATE) {
            store.holdFollowers(retries, now);
        }
    }

    /** A claimed batch on its way to Kafka, between {@link #launch} and {@link #land}. */
    public record Flight(String owner, Path path, List<ClaimedEvent> claimed, EventPublisher.Sending sending,
                         PublishSpans spans, long started) {
    }

    private void report(Path path, List<ClaimedEvent> claimed, Decision decision,
                        Outcomes.DeadLetterDecision lettered, Instant acked, Duration duration, Duration marking) {
        Map<Long, ClaimedEvent> byId = claimed.stream().collect(Collectors.toMap(ClaimedEvent::id, event -> event));
        List<Duration> commitToAck = new ArrayList<>();
        List<Integer> sentAttempts = new ArrayList<>();
        for (Outcomes.Sent sent : decision.sent()) {
            ClaimedEvent event = byId.get(sent.id());
            commitToAck.add(Duration.between(event.createdAt().toInstant(), acked));
            sentAttempts.add(event.attempts());
        }
        List<Failure> failed = lettered.failures();
        int dead = (int) failed.stream().filter(failure -> "DEAD".equals(failure.status())).count();
        reports.fire(new RoundReport(path, claimed.size(), duration, commitToAck, sentAttempts,
                decision.retries().size() + lettered.retries().size(), failed.size() - dead, dead,
                decision.released().size() + decision.unsent().size() + lettered.released().size(), marking));
    }

    /**
     * Publishes to {@code <topic>.DLT} and records what became of each dead letter (see
     * {@link Outcomes#afterDeadLetters}).
     */
    private Outcomes.DeadLetterDecision deadLetter(String owner, Outcomes outcomes, List<DeadLetter> candidates)
            throws SQLException, InterruptedException {
        if (candidates.isEmpty()) {
            return new Outcomes.DeadLetterDecision(List.of(), List.of(), List.of());
        }
        // the round's sends were answered first and may have taken most of the lease: the dead letters get a
        // lease, and a window, of their own; those whose lease ran out meanwhile are another relay's now
        long renewed = System.nanoTime();
        Set<Long> held = store.renewLeases(owner, candidates.stream().map(letter -> letter.event().id()).toList(),
                settings.lease());
        List<DeadLetter> deadLetters = candidates.stream().filter(letter -> held.contains(letter.event().id()))
                .toList();
        if (deadLetters.isEmpty()) {
            return new Outcomes.DeadLetterDecision(List.of(), List.of(), List.of());
        }
        SendWindow window = SendWindow.opening(renewed, settings.lease(), publisher.landingBound(), System::nanoTime);
        Instant now = clock.instant();
        Map<Long, ProducerRecord<String, byte[]>> records = new LinkedHashMap<>();
        deadLetters.forEach(letter -> records.put(letter.event().id(), KafkaRecords.deadLetter(letter.event(),
                settings.cloudEventsSource(), letter.error(), letter.attempts(), now)));
        PublishSpans spans = PublishSpans.start(tracing, deadLetters.stream().map(DeadLetter::event).toList(), records);
        EventPublisher.Sending sending = publisher.send(records, Set.of(), window);
        Map<Long, PublishResult> results = publisher.complete(sending);
        spans.end(results);
        Instant done = clock.instant();
        Outcomes.DeadLetterDecision decision = outcomes.afterDeadLetters(deadLetters, results, done,
                () -> answeredThroughout(sending), ThreadLocalRandom.current()::nextDouble);
        store.markFailed(owner, decision.failures(), done);
        retry(owner, decision.retries(), done);
        store.release(owner, decision.released(), done);
        Map<Long, ClaimedEvent> byId = deadLetters.stream()
                .collect(Collectors.toMap(letter -> letter.event().id(), DeadLetter::event));
        for (Failure failure : decision.failures()) {
            String eventId = String.valueOf(byId.get(failure.id()).eventId());
            if (results.get(failure.id()) instanceof Acked acked) {
                LOG.warning(() -> "Event " + eventId + " dead-lettered to " + byId.get(failure.id()).topic()
                        + KafkaRecords.DLT_SUFFIX + " (partition " + acked.partition() + ", offset " + acked.offset()
                        + ") after " + failure.attempts() + " attempt(s): " + failure.error());
            } else {
                LOG.severe(() -> "Event " + eventId + " is DEAD: " + failure.error());
            }
        }
        decision.retries().forEach(retry -> LOG.warning(() -> "Event " + byId.get(retry.id()).eventId()
                + " is tried again at " + retry.nextAttemptAt() + ": " + retry.error()));
        return decision;
    }

    /**
     * Whether a send of {@code sending} that timed out may be its record's fault: only if the cluster answers now and
     * the producer kept its connections to it meanwhile. A probe alone blames the record for an outage that ended
     * before the probe: Kafka stopped while a batch waited for it and was back a moment later (in a test of exactly
     * that, the order's event spent an attempt 23 times in 24), and a few such blips in a row would dead-letter it.
     */
    private boolean answeredThroughout(EventPublisher.Sending sending) {
        return clusterReachable() && !publisher.lostConnectionSince(sending);
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
            Throwable cause = FailureKind.unwrap(unreachable);
            outage.unreachable(cause.getMessage() != null ? cause.getMessage()
                    : cause instanceof TimeoutException ? "no answer within " + PROBE_TIMEOUT.toSeconds() + " s"
                    : cause.getClass().getName());
            return false;
        }
    }
}

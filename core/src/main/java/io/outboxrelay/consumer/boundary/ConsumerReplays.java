package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumerDeadLetterRows;
import io.outboxrelay.consumer.control.ConsumerDeadLetterRows.Taken;
import io.outboxrelay.consumer.control.ConsumerPolicies;
import io.outboxrelay.consumer.control.IncomingEvents;
import io.outboxrelay.consumer.control.ProcessSpans;
import io.outboxrelay.consumer.control.Retrying;
import io.outboxrelay.consumer.entity.ConsumerOutcome;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.tracing.boundary.MessageSpan;
import io.outboxrelay.tracing.boundary.Tracing;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Replays consumer dead letters to their group alone: every {@code outbox.consumer.replay.poll-ms} (1 s)
 * this server takes the replays an operator asked for the groups whose handlers it runs, and hands each
 * record to its group's handler, exactly as a record from Kafka (deduplicated, in its own transaction,
 * retried). Nothing is written to Kafka, so no other group sees the record again. A server knows a group's
 * handler once the group handled a record here, or the application registered it
 * ({@link ReliableConsumer#register}); until then replays for that group wait for another server that knows it.
 * A taken replay is held for {@code outbox.consumer.replay.hold-ms} (5 minutes): should this server stop
 * meanwhile, another takes it over then, and the group's record of handled events keeps the effect single.
 */
@ApplicationScoped
public class ConsumerReplays {

    private static final Logger LOG = Logger.getLogger(ConsumerReplays.class.getName());

    private static final int BATCH = 20;

    @Inject
    Tracing tracing;

    @Inject
    ConsumerDeadLetterRows rows;

    @Inject
    IdempotentHandling idempotent;

    @Inject
    ConsumerPolicies policies;

    @Inject
    Event<ConsumerOutcome> outcomes;

    @Inject
    @ConfigProperty(name = "outbox.consumer.replay.poll-ms", defaultValue = "1000")
    long pollMs;

    @Inject
    @ConfigProperty(name = "outbox.consumer.replay.hold-ms", defaultValue = "300000")
    long holdMs;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private final String owner = ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, Consumer<IncomingEvent>> handlers = new ConcurrentHashMap<>();
    private ScheduledFuture<?> polling;

    /** From now on this server replays {@code group}'s dead letters through {@code handler}. */
    public void serve(String group, Consumer<IncomingEvent> handler) {
        handlers.put(group, handler);
        startPolling();
    }

    private synchronized void startPolling() {
        if (polling == null) {
            polling = scheduler.scheduleWithFixedDelay(this::replayDue, pollMs, pollMs, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (polling != null) {
            polling.cancel(true);
        }
    }

    /** One poll: takes what is due and replays it; never throws, so the schedule goes on. */
    void replayDue() {
        try {
            List<Taken> taken;
            while (!(taken = rows.take(List.copyOf(handlers.keySet()), owner, Duration.ofMillis(holdMs), BATCH)).isEmpty()) {
                for (Taken replay : taken) {
                    replay(replay);
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (Exception failed) {
            // the database is down, say: the replays stay asked for, and the next poll tries again
            LOG.log(Level.WARNING, "Replaying consumer dead letters failed; the next poll tries again", failed);
        }
    }

    private void replay(Taken replay) throws Exception {
        long started = System.nanoTime();
        Consumer<IncomingEvent> handler = handlers.get(replay.group());
        IdempotentHandling.Outcome[] outcome = new IdempotentHandling.Outcome[1];
        RecordPlace place = RecordPlace.of(replay.record());
        MessageSpan span = ProcessSpans.start(tracing, replay.group(), replay.record(), true);
        Retrying.Result result;
        try (MessageSpan.Scope current = span.makeCurrent()) {
            result = policies.handling().run(() -> outcome[0] =
                    idempotent.handleOnce(replay.group(), place, IncomingEvents.of(replay.record()), handler));
        } catch (InterruptedException | RuntimeException unfinished) {
            ProcessSpans.interrupted(span);
            throw unfinished;
        }
        ConsumerOutcome.Kind kind = !result.passed() ? ConsumerOutcome.Kind.DEAD_LETTERED
                : outcome[0] == IdempotentHandling.Outcome.DUPLICATE ? ConsumerOutcome.Kind.DUPLICATE
                : ConsumerOutcome.Kind.PROCESSED;
        ProcessSpans.end(span, kind, result);
        if (result.passed()) {
            rows.replayed(replay.id(), owner, kind.name());
            LOG.info(() -> replay.group() + " replayed its dead letter of " + place + ": " + (kind == ConsumerOutcome.Kind.DUPLICATE
                    ? "it had already handled the event, no second effect" : "handled"));
        } else {
            rows.failedAgain(replay.id(), owner, result);
            LOG.warning(() -> replay.group() + " replayed its dead letter of " + place + " and failed again after "
                    + result.attempts() + " attempt(s): " + result.lastError());
        }
        outcomes.fire(new ConsumerOutcome(replay.group(), kind, result.attempts(), Duration.ofNanos(System.nanoTime() - started)));
    }
}

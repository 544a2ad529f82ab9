package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.relay.entity.PublishResult.Acked;
import io.outboxrelay.relay.entity.PublishResult.Failed;
import io.outboxrelay.relay.entity.PublishResult.NotSent;
import io.outboxrelay.time.Backoff;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;

/**
 * Decides what happens to each published-or-not event of a batch. Pure: time, randomness and
 * "is the cluster reachable?" come in as arguments, so every transition is unit-tested.
 */
public final class Outcomes {

    public record Sent(long id, int partition, long offset) {
    }

    public record Retry(long id, Instant nextAttemptAt, String error) {
    }

    public record DeadLetter(ClaimedEvent event, Throwable error, int attempts) {
    }

    /**
     * The decisions for one batch; {@code released} rows go back untouched because Kafka is down, {@code unsent}
     * ones because the round's lease ran short before they could be sent (no attempt spent either way).
     */
    public record Decision(List<Sent> sent, List<Retry> retries, List<DeadLetter> deadLetters, List<Long> released,
                           List<Long> unsent) {

        public boolean outage() {
            return !released.isEmpty();
        }
    }

    private final int maxAttempts;
    private final Backoff backoff;

    public Outcomes(int maxAttempts, Backoff backoff) {
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
    }

    /**
     * @param clusterReachable asked at most once, and only when a failure could be an outage
     */
    public Decision decide(List<ClaimedEvent> events, Map<Long, PublishResult> results, Instant now,
                           BooleanSupplier clusterReachable, DoubleSupplier random) {
        List<Sent> sent = new ArrayList<>();
        List<Retry> retries = new ArrayList<>();
        List<DeadLetter> deadLetters = new ArrayList<>();
        List<Long> released = new ArrayList<>();
        List<Long> unsent = new ArrayList<>();
        Boolean reachable = null;
        for (ClaimedEvent event : events) {
            PublishResult result = results.get(event.id());
            if (result instanceof Acked acked) {
                sent.add(new Sent(event.id(), acked.partition(), acked.offset()));
                continue;
            }
            if (result instanceof NotSent) {
                unsent.add(event.id());
                continue;
            }
            Throwable error = result instanceof Failed failed
                    ? FailureKind.unwrap(failed.error())
                    : new IllegalStateException("no result for event " + event.eventId());
            FailureKind kind = FailureKind.of(error);
            if (kind == FailureKind.AMBIGUOUS) {
                if (reachable == null) {
                    reachable = clusterReachable.getAsBoolean();
                }
                if (!reachable) {
                    released.add(event.id());
                    continue;
                }
            }
            int attempts = event.attempts() + 1;
            if (kind == FailureKind.FINAL || attempts >= maxAttempts) {
                deadLetters.add(new DeadLetter(event, error, attempts));
            } else {
                retries.add(new Retry(event.id(), backoff.next(attempts, now, random), describe(error)));
            }
        }
        return new Decision(sent, retries, deadLetters, released, unsent);
    }

    /** The error as operators read it in {@code last_error}: class and message, bounded. */
    public static String describe(Throwable error) {
        String text = error.getClass().getName() + ": " + error.getMessage();
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }
}

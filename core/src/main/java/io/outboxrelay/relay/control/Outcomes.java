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

    /**
     * What becomes of the dead letters of a batch once the dead-letter topic answered: {@code failures} end DLT
     * or DEAD, {@code retries} try again later (the dead-letter topic failed for a reason that may pass),
     * {@code released} go back untouched (Kafka is down, or their dead letter was never sent).
     */
    public record DeadLetterDecision(List<RelayStore.Failure> failures, List<Retry> retries, List<Long> released) {
    }

    /**
     * How many more tries an event whose attempts are spent gets when its dead-letter topic fails for a reason
     * that may pass; one whose attempts are not spent has those first.
     */
    static final int DEAD_LETTER_TRIES = 3;

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
        BooleanSupplier reachable = once(clusterReachable);
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
            if (kind == FailureKind.AMBIGUOUS && !reachable.getAsBoolean()) {
                released.add(event.id());
                continue;
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

    /**
     * Acked: DLT. Refused for good (too large for the dead-letter topic too, an illegal name, not authorised):
     * DEAD at once. Failed for a reason that may pass while the cluster answers (the dead-letter topic still
     * being created by its first record, a leader moving): the event is tried again after the backoff, the try
     * counted, and ends DEAD only when {@link #DEAD_LETTER_TRIES} tries past its last attempt failed too.
     * The event's own failure and the dead-letter topic's both stay in {@code last_error}.
     *
     * @param clusterReachable asked at most once, and only when a failure could be an outage
     */
    public DeadLetterDecision afterDeadLetters(List<DeadLetter> letters, Map<Long, PublishResult> results, Instant now,
                                              BooleanSupplier clusterReachable, DoubleSupplier random) {
        List<RelayStore.Failure> failures = new ArrayList<>();
        List<Retry> retries = new ArrayList<>();
        List<Long> released = new ArrayList<>();
        BooleanSupplier reachable = once(clusterReachable);
        for (DeadLetter letter : letters) {
            long id = letter.event().id();
            PublishResult result = results.get(id);
            String reason = describe(letter.error());
            if (result instanceof Acked) {
                failures.add(new RelayStore.Failure(id, "DLT", letter.attempts(), reason));
                continue;
            }
            if (result instanceof NotSent) {
                released.add(id); // its last attempt is made again by whoever claims it next
                continue;
            }
            Throwable error = result instanceof Failed failed
                    ? FailureKind.unwrap(failed.error())
                    : new IllegalStateException("no result for the dead letter of event " + letter.event().eventId());
            FailureKind kind = FailureKind.of(error);
            if (kind == FailureKind.AMBIGUOUS && !reachable.getAsBoolean()) {
                released.add(id); // not the event's fault: it comes back after the outage
                continue;
            }
            String dlt = letter.event().topic() + KafkaRecords.DLT_SUFFIX;
            if (kind != FailureKind.FINAL && letter.attempts() < maxAttempts + DEAD_LETTER_TRIES) {
                retries.add(new Retry(id, backoff.next(letter.attempts(), now, random),
                        reason + "; dead-letter topic " + dlt + " did not take it yet: " + describe(error)));
            } else {
                failures.add(new RelayStore.Failure(id, "DEAD", letter.attempts(),
                        reason + "; dead-letter topic " + dlt + " failed too: " + describe(error)));
            }
        }
        return new DeadLetterDecision(failures, retries, released);
    }

    /** Asks at most once, and only if asked. */
    private static BooleanSupplier once(BooleanSupplier question) {
        Boolean[] answer = new Boolean[1];
        return () -> {
            if (answer[0] == null) {
                answer[0] = question.getAsBoolean();
            }
            return answer[0];
        };
    }

    /** The error as operators read it in {@code last_error}: class and message, bounded. */
    public static String describe(Throwable error) {
        String text = error.getClass().getName() + ": " + error.getMessage();
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }
}

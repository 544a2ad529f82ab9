package io.outboxrelay.consumer.control;

import io.outboxrelay.time.Backoff;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * Runs a piece of work until it passes or its attempts run out, waiting the backoff between
 * attempts. A failure that is an outage rather than the work's fault (the database is down, say)
 * spends no attempt: the work waits, with the same capped backoff, until the outage is over.
 * The wait is a parameter so tests run every schedule without waiting.
 */
public final class Retrying {

    /** How the work ended: passed, or failed {@code attempts} times, the last time with {@code lastError}. */
    public record Result(boolean passed, int attempts, Instant firstFailure, Instant lastFailure, Throwable lastError) {
        public String lastErrorOrNone() {
            return lastError == null ? "none" : lastError.toString();
        }
    }

    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    private final int maxAttempts;
    private final Backoff backoff;
    private final Clock clock;
    private final Pause pause;
    private final Predicate<Exception> outage;

    public Retrying(int maxAttempts, Backoff backoff, Clock clock, Pause pause) {
        this(maxAttempts, backoff, clock, pause, failure -> false);
    }

    /** {@code outage}: which failures are not the work's fault and so spend no attempt. */
    public Retrying(int maxAttempts, Backoff backoff, Clock clock, Pause pause, Predicate<Exception> outage) {
        this.maxAttempts = Math.max(1, maxAttempts);
        this.backoff = backoff;
        this.clock = clock;
        this.pause = pause;
        this.outage = outage;
    }

    public Result run(Work work) throws InterruptedException {
        Instant firstFailure = null;
        Exception lastError = null;
        int attempt = 1;
        int outageWaits = 0;
        while (true) {
            try {
                work.run();
                return new Result(true, attempt - 1, firstFailure, null, lastError);
            } catch (InterruptedException interrupted) {
                throw interrupted;
            } catch (Exception failure) {
                Instant now = clock.instant();
                lastError = failure;
                firstFailure = firstFailure == null ? now : firstFailure;
                if (outage.test(failure)) {
                    pause.pause(backoff.delay(++outageWaits, ThreadLocalRandom.current()::nextDouble));
                    continue;
                }
                if (attempt >= maxAttempts || !retryable(failure)) {
                    return new Result(false, attempt, firstFailure, now, failure);
                }
                pause.pause(backoff.delay(attempt, ThreadLocalRandom.current()::nextDouble));
                attempt++;
            }
        }
    }

    /** A poison record fails the same way every time: retrying it only delays the partition. */
    private static boolean retryable(Exception failure) {
        return !(failure instanceof io.outboxrelay.consumer.entity.PoisonRecordException);
    }
}

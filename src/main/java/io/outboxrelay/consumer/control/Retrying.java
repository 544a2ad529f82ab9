package io.outboxrelay.consumer.control;

import io.outboxrelay.relay.control.Backoff;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs a piece of work until it passes or its attempts run out, waiting the backoff between
 * attempts. The wait is a parameter so tests run every schedule without waiting.
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

    public Retrying(int maxAttempts, Backoff backoff, Clock clock, Pause pause) {
        this.maxAttempts = Math.max(1, maxAttempts);
        this.backoff = backoff;
        this.clock = clock;
        this.pause = pause;
    }

    public Result run(Work work) throws InterruptedException {
        Instant firstFailure = null;
        Exception lastError = null;
        for (int attempt = 1; ; attempt++) {
            try {
                work.run();
                return new Result(true, attempt - 1, firstFailure, null, lastError);
            } catch (InterruptedException interrupted) {
                throw interrupted;
            } catch (Exception failure) {
                Instant now = clock.instant();
                lastError = failure;
                firstFailure = firstFailure == null ? now : firstFailure;
                if (attempt >= maxAttempts || !retryable(failure)) {
                    return new Result(false, attempt, firstFailure, now, failure);
                }
                pause.pause(backoff.delay(attempt, ThreadLocalRandom.current()::nextDouble));
            }
        }
    }

    /** A poison record fails the same way every time: retrying it only delays the partition. */
    private static boolean retryable(Exception failure) {
        return !(failure instanceof io.outboxrelay.consumer.entity.PoisonRecordException);
    }
}

package io.outboxrelay.time;

import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: the n-th retry waits {@code base * 2^(n-1)}, capped, then
 * spread by ±{@code jitter} so that many events failing together do not retry together.
 */
public record Backoff(Duration base, Duration cap, double jitter) {

    public Backoff {
        if (base.isNegative() || cap.compareTo(base) < 0 || jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("backoff needs 0 <= base <= cap and 0 <= jitter < 1");
        }
    }

    /** The delay before retry number {@code attempt} (1 for the first retry). */
    public Duration delay(int attempt, DoubleSupplier random) {
        int doublings = Math.min(Math.max(attempt, 1) - 1, 40);
        long millis = Math.min(cap.toMillis(), saturatedShift(base.toMillis(), doublings));
        double spread = 1 + jitter * (2 * random.getAsDouble() - 1);
        return Duration.ofMillis(Math.min(cap.toMillis(), Math.round(millis * spread)));
    }

    public Instant next(int attempt, Instant now, DoubleSupplier random) {
        return now.plus(delay(attempt, random));
    }

    private static long saturatedShift(long value, int bits) {
        return value > (Long.MAX_VALUE >> bits) ? Long.MAX_VALUE : value << bits;
    }
}

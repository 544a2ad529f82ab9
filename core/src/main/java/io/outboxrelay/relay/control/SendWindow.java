package io.outboxrelay.relay.control;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The part of a lease in which a round may still hand records to Kafka's producer. A record handed over
 * lands, or fails for good, at the latest {@code max.block.ms + delivery.timeout.ms} later; it must do so
 * while the rows are still this round's, or a relay that took them over after the lease ran out could
 * publish an aggregate's next event first and this round's late copy would land after it. So a round
 * sends nothing once the window has closed, and gives the unsent rows back instead.
 */
public final class SendWindow {

    /** Room for a pause of the JVM, and for the claim's clock and the database's to disagree a little. */
    static final Duration SAFETY = Duration.ofSeconds(1);

    private final long closesAtNanos;
    private final LongSupplier nanoTime;

    private SendWindow(long closesAtNanos, LongSupplier nanoTime) {
        this.closesAtNanos = closesAtNanos;
        this.nanoTime = nanoTime;
    }

    /**
     * How long after a lease begins records may still be handed over, given how long one can take to land;
     * zero or less means the lease is too short for the producer's timeouts.
     */
    public static Duration width(Duration lease, Duration landingBound) {
        return lease.minus(landingBound).minus(SAFETY);
    }

    /** A window for a lease that began (by {@code nanoTime}) at {@code leaseBegan}. */
    static SendWindow opening(long leaseBegan, Duration lease, Duration landingBound, LongSupplier nanoTime) {
        return new SendWindow(leaseBegan + width(lease, landingBound).toNanos(), nanoTime);
    }

    /** While open, a record handed to the producer now still lands within the lease. */
    public boolean open() {
        return nanoTime.getAsLong() - closesAtNanos < 0;
    }
}

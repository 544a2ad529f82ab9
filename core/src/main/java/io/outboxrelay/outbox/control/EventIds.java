package io.outboxrelay.outbox.control;

import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.UUID;

/**
 * Time-ordered event ids: UUID version 7 (RFC 9562). The first 48 bits are the Unix time in
 * milliseconds; the next 12 bits are a counter that keeps ids from one instance increasing
 * within a millisecond (and across a clock that steps back); the rest is random.
 */
@ApplicationScoped
public class EventIds {

    private static final int COUNTER_BITS = 12;
    private static final int COUNTER_MAX = (1 << COUNTER_BITS) - 1;

    private final SecureRandom random = new SecureRandom();
    private Clock clock;
    private long lastMillis = -1;
    private int counter;

    protected EventIds() {
        // CDI proxy
    }

    @Inject
    public EventIds(@OutboxClock Clock clock) {
        this.clock = clock;
    }

    public UUID next() {
        long millis;
        int sequence;
        synchronized (this) {
            millis = Math.max(clock.millis(), lastMillis);
            if (millis == lastMillis) {
                if (counter == COUNTER_MAX) {
                    millis++; // borrow the next millisecond rather than repeat a value
                    counter = 0;
                } else {
                    counter++;
                }
            } else {
                counter = random.nextInt(1 << (COUNTER_BITS - 1)); // leave headroom to count up
            }
            lastMillis = millis;
            sequence = counter;
        }
        long mostSignificant = (millis << 16) | (0x7L << 12) | sequence;
        long leastSignificant = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(mostSignificant, leastSignificant);
    }

    /** The creation time encoded in a version-7 id, in Unix milliseconds. */
    public static long unixMillisOf(UUID id) {
        if (id.version() != 7) {
            throw new IllegalArgumentException("not a version 7 UUID: " + id);
        }
        return id.getMostSignificantBits() >>> 16;
    }
}

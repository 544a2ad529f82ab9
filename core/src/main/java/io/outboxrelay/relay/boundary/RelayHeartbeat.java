package io.outboxrelay.relay.boundary;

import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;

/** When a relay worker last began a round (idle, busy or failing: its loop is alive). */
@ApplicationScoped
public class RelayHeartbeat {

    @Inject
    @OutboxClock
    Clock clock;

    private volatile Instant last;

    public void beat() {
        last = clock.instant();
    }

    /** {@code null} until the first round. */
    public Instant last() {
        return last;
    }
}

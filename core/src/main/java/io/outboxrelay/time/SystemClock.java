package io.outboxrelay.time;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;

/** The one place that reads wall-clock time; everything else injects the {@link OutboxClock} so tests can fix it. */
@ApplicationScoped
public class SystemClock {

    @Produces
    @OutboxClock
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }
}

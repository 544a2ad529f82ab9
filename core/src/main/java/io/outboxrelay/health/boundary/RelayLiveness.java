package io.outboxrelay.health.boundary;

import io.outboxrelay.relay.boundary.RelayHeartbeat;
import io.outboxrelay.relay.boundary.RelaySettings;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Live while the relay loop keeps beating: a round began within {@code outbox.health.relay-stale-ms}
 * (default 60 s). A stuck loop is what a restart fixes; a database or Kafka outage is not (the
 * loop keeps beating through those, and readiness reports them).
 */
@Liveness
@ApplicationScoped
public class RelayLiveness implements HealthCheck {

    @Inject
    RelayHeartbeat heartbeat;

    @Inject
    RelaySettings settings;

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.health.relay-stale-ms", defaultValue = "60000")
    long staleMs;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("relay-loop");
        if (!settings.enabled()) {
            return response.up().withData("relay", "disabled on this server").build();
        }
        Instant last = heartbeat.last();
        if (last == null) {
            return response.up().withData("relay", "starting").build(); // the startup check covers this phase
        }
        long ageMs = Duration.between(last, clock.instant()).toMillis();
        // an idle relay that is woken by notifications runs a round at least once per poll
        long allowedMs = Math.max(staleMs, 2 * settings.pollInterval().toMillis());
        return response.status(ageMs <= allowedMs).withData("lastRoundMsAgo", ageMs).build();
    }
}

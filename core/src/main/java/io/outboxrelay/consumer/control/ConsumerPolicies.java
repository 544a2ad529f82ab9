package io.outboxrelay.consumer.control;

import io.outboxrelay.database.boundary.DatabaseFailures;
import io.outboxrelay.time.Backoff;
import io.outboxrelay.time.OutboxClock;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;

/**
 * How the consumers retry: a record's handling ({@code outbox.consumer.max-attempts} attempts with capped,
 * jittered backoff; a database that is down is no fault of the record and spends none), and a dead letter's
 * writing (until the database and Kafka both take it). The same for a record from Kafka and for a replay.
 */
@ApplicationScoped
public class ConsumerPolicies {

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.consumer.max-attempts", defaultValue = "5")
    int maxAttempts;

    @Inject
    @ConfigProperty(name = "outbox.consumer.backoff.base-ms", defaultValue = "500")
    long backoffBaseMs;

    @Inject
    @ConfigProperty(name = "outbox.consumer.backoff.cap-ms", defaultValue = "30000")
    long backoffCapMs;

    private Retrying handling;
    private Retrying deadLettering;

    @PostConstruct
    void policies() {
        Backoff backoff = new Backoff(Duration.ofMillis(backoffBaseMs), Duration.ofMillis(backoffCapMs), 0.2);
        Retrying.Pause sleep = duration -> Thread.sleep(duration.toMillis());
        handling = new Retrying(maxAttempts, backoff, clock, sleep, DatabaseFailures::isUnavailable);
        deadLettering = new Retrying(Integer.MAX_VALUE, backoff, clock, sleep);
    }

    public Retrying handling() {
        return handling;
    }

    public Retrying deadLettering() {
        return deadLettering;
    }
}

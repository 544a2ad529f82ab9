package io.outboxrelay.lag.boundary;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Takes the lag figures every {@code outbox.lag.refresh-ms} (default 10 s). */
@Singleton(name = "OutboxRelayLagRefresher")
@Startup
@DependsOn("OutboxRelaySchemaMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class LagRefresher {

    @Inject
    @ConfigProperty(name = "outbox.lag.refresh-ms", defaultValue = "10000")
    long refreshMs;

    @Inject
    LagSnapshot snapshot;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> refreshing;

    @PostConstruct
    void start() {
        refreshing = scheduler.scheduleWithFixedDelay(snapshot::refresh, 0, refreshMs, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        refreshing.cancel(false);
    }
}

package io.outboxrelay.retention.boundary;

import io.outboxrelay.retention.control.Batches;
import io.outboxrelay.retention.control.RetentionStore;
import io.outboxrelay.retention.entity.RowsDeleted;
import io.outboxrelay.time.OutboxClock;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Every {@code outbox.retention.interval-ms} (default one hour): deletes SENT rows published more than
 * {@code outbox.retention.sent-days} (7) ago, or with {@code outbox.retention.archive} moves them to
 * {@code outbox_event_archive} (kept {@code outbox.retention.archive-days}; 0, the default, for ever);
 * deletes {@code consumed_event} rows older than {@code outbox.retention.consumed-days} (30; it must
 * outlive Kafka's retention plus any replay window, or a redelivered event would take effect twice) and
 * replayed consumer dead letters as old; {@code outbox.retention.batch-size} (1000) rows at a time with
 * {@code outbox.retention.pause-ms} (100) between batches. DLT and DEAD rows, and consumer dead letters
 * waiting for an operator, are deleted only when {@code outbox.retention.dead-letter-days} is above 0
 * (off by default).
 */
@Singleton(name = "OutboxRelayRetention")
@Startup
@DependsOn("OutboxRelaySchemaMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class.getName());

    @Inject
    @ConfigProperty(name = "outbox.retention.enabled", defaultValue = "true")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "outbox.retention.interval-ms", defaultValue = "3600000")
    long intervalMs;

    @Inject
    @ConfigProperty(name = "outbox.retention.sent-days", defaultValue = "7")
    int sentDays;

    @Inject
    @ConfigProperty(name = "outbox.retention.consumed-days", defaultValue = "30")
    int consumedDays;

    @Inject
    @ConfigProperty(name = "outbox.retention.dead-letter-days", defaultValue = "0")
    int deadLetterDays;

    @Inject
    @ConfigProperty(name = "outbox.retention.archive", defaultValue = "false")
    boolean archive;

    @Inject
    @ConfigProperty(name = "outbox.retention.archive-days", defaultValue = "0")
    int archiveDays;

    @Inject
    @ConfigProperty(name = "outbox.retention.batch-size", defaultValue = "1000")
    int batchSize;

    @Inject
    @ConfigProperty(name = "outbox.retention.pause-ms", defaultValue = "100")
    long pauseMs;

    @Inject
    RetentionStore store;

    @Inject
    Event<RowsDeleted> deletions;

    @Inject
    @OutboxClock
    Clock clock;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> running;

    @PostConstruct
    void start() {
        if (enabled) {
            running = scheduler.scheduleWithFixedDelay(this::runSafely, Math.min(intervalMs, 60_000), intervalMs,
                    TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (running != null) {
            running.cancel(true);
        }
    }

    private void runSafely() {
        try {
            run();
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (Exception e) { // the database may be away; the next run tries again
            LOG.log(Level.WARNING, "Retention run failed; the next one tries again: " + e);
        }
    }

    void run() throws Exception {
        OffsetDateTime now = OffsetDateTime.now(clock);
        if (archive) {
            delete("outbox_event", size -> store.archiveSent(now.minusDays(sentDays), size),
                    "SENT rows older than " + sentDays + " days (moved to outbox_event_archive)");
        } else {
            delete("outbox_event", size -> store.deleteSent(now.minusDays(sentDays), size),
                    "SENT rows older than " + sentDays + " days");
        }
        if (archiveDays > 0) {
            delete("outbox_event_archive", size -> store.deleteArchived(now.minusDays(archiveDays), size),
                    "archived rows older than " + archiveDays + " days");
        }
        delete("consumed_event", size -> store.deleteConsumed(now.minusDays(consumedDays), size),
                "dedup-log rows older than " + consumedDays + " days");
        delete("consumer_dead_letter", size -> store.deleteConsumerDeadLetters(List.of("REPLAYED"),
                now.minusDays(consumedDays), size), "replayed consumer dead letters older than " + consumedDays + " days");
        if (deadLetterDays > 0) {
            delete("outbox_event", size -> store.deleteDeadLetters(now.minusDays(deadLetterDays), size),
                    "DLT/DEAD rows unchanged for " + deadLetterDays + " days");
            delete("consumer_dead_letter", size -> store.deleteConsumerDeadLetters(List.of("DEAD_LETTERED"),
                    now.minusDays(deadLetterDays), size), "consumer dead letters unchanged for " + deadLetterDays + " days");
        }
    }

    private void delete(String table, Batches.Batch batch, String what) throws Exception {
        long deleted = Batches.drain(batch, batchSize, Duration.ofMillis(pauseMs),
                pause -> Thread.sleep(pause.toMillis()), rows -> deletions.fire(new RowsDeleted(table, rows)));
        if (deleted > 0) {
            LOG.info(() -> "Retention deleted " + deleted + " " + what);
        }
    }
}

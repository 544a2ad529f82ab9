package io.outboxrelay.lag.boundary;

import io.outboxrelay.lag.control.ConsumerLag;
import io.outboxrelay.lag.control.OutboxBacklog;
import io.outboxrelay.lag.control.ReplicationSlots;
import io.outboxrelay.lag.entity.PartitionLag;
import io.outboxrelay.lag.entity.SlotLag;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The latest figures that cost a query or a round trip to Kafka: rows per status, the oldest
 * pending age, each consumer group's lag and dead letters waiting, the CDC mode's replication slot. Taken on a schedule
 * ({@link #refresh()}), read for free by the metrics, {@code /outbox/api/lag} and the console: a
 * scrape never queries the database.
 */
@ApplicationScoped
public class LagSnapshot {

    private static final Logger LOG = Logger.getLogger(LagSnapshot.class.getName());

    /**
     * {@code consumerDeadLetters}: per consumer group, the records it gave up on that wait for an operator.
     * {@code databaseError}/{@code kafkaError} say why a part is stale; those parts keep their last values.
     */
    public record Figures(Instant takenAt, Map<String, Long> rowsByStatus, double oldestPendingAgeSeconds,
                          List<PartitionLag> consumers, Map<String, Long> consumerDeadLetters, SlotLag slot,
                          String databaseError, String kafkaError) {
    }

    @Inject
    OutboxBacklog backlog;

    @Inject
    ConsumerLag consumerLag;

    @Inject
    ReplicationSlots slots;

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    jakarta.enterprise.event.Event<Figures> measured;

    private volatile Figures figures = new Figures(null, Map.of(), 0, List.of(), Map.of(), SlotLag.absent(""),
            "not measured yet", "not measured yet");

    public Figures figures() {
        return figures;
    }

    public synchronized void refresh() {
        Figures last = figures;
        Map<String, Long> rows = last.rowsByStatus();
        double oldest = last.oldestPendingAgeSeconds();
        Map<String, Long> consumerDeadLetters = last.consumerDeadLetters();
        SlotLag slot = last.slot();
        String databaseError = null;
        try {
            rows = Map.copyOf(backlog.rowsByStatus());
            oldest = backlog.oldestPendingAgeSeconds();
            consumerDeadLetters = Map.copyOf(backlog.consumerDeadLettersByGroup());
            slot = slots.lag();
        } catch (Exception e) {
            databaseError = "database did not answer: " + e.getClass().getSimpleName();
        }
        List<PartitionLag> consumers = last.consumers();
        String kafkaError = null;
        try {
            consumers = List.copyOf(consumerLag.all());
        } catch (Exception e) {
            kafkaError = "Kafka did not answer: " + e.getClass().getSimpleName();
        }
        if (databaseError != null || kafkaError != null) {
            String why = databaseError != null ? databaseError : kafkaError;
            LOG.fine(() -> "lag figures partly stale: " + why);
        }
        figures = new Figures(clock.instant(), rows, oldest, consumers, consumerDeadLetters, slot, databaseError,
                kafkaError);
        measured.fire(figures);
    }
}

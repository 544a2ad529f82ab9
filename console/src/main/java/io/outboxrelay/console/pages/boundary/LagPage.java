package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.pages.control.Charts;
import io.outboxrelay.lag.boundary.LagHistory;
import io.outboxrelay.lag.boundary.LagSnapshot;
import io.outboxrelay.lag.entity.LagSample;
import io.outboxrelay.lag.entity.PartitionLag;
import io.outboxrelay.lag.entity.SlotLag;
import jakarta.annotation.PostConstruct;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Lag, redrawn every few seconds while the page is open: rows by status, the age of the oldest event not yet
 * published and this server's publish rate as lines over the server's lag history (the last hour, so a reload
 * keeps them), each consumer group's lag and the age of its oldest unconsumed record, and the records each
 * group gave up on that wait for an operator.
 */
@Named("outboxLag")
@ViewScoped
public class LagPage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    @Inject
    LagSnapshot snapshot;

    @Inject
    LagHistory history;

    private transient List<LagSample> samples = List.of();
    private Map<String, Long> rowsByStatus = new TreeMap<>();
    private transient List<PartitionLag> partitions = List.of();
    private Map<String, Long> consumerDeadLetters = new TreeMap<>();
    private double oldestPendingAgeSeconds;
    private SlotLag slot = SlotLag.absent("");
    private String consumerError;

    /** Reads the latest lag snapshot and the history (refreshed by the server every {@code outbox.lag.refresh-ms}). */
    @PostConstruct
    public void refresh() {
        LagSnapshot.Figures figures = snapshot.figures();
        rowsByStatus = new TreeMap<>(figures.rowsByStatus());
        oldestPendingAgeSeconds = figures.oldestPendingAgeSeconds();
        samples = history.samples();
        partitions = figures.consumers();
        consumerDeadLetters = new TreeMap<>(figures.consumerDeadLetters());
        slot = figures.slot();
        consumerError = figures.kafkaError() != null ? figures.kafkaError() : figures.databaseError();
    }

    public String getStatusChart() {
        return Charts.bars("Rows by status", rowsByStatus);
    }

    public String getAgeChart() {
        return Charts.line("Oldest pending age (s), last hour", times(), samples().stream()
                .map(LagSample::oldestPendingAgeSeconds).toList());
    }

    public String getRateChart() {
        return Charts.line("Publish rate (events/s, this server), last hour", times(), samples().stream()
                .map(LagSample::publishRatePerSecond).toList());
    }

    /** Total lag per consumer group and topic. */
    public String getConsumerChart() {
        Map<String, Long> lagByGroup = new TreeMap<>();
        partitions.forEach(partition -> lagByGroup.merge(partition.group() + " · " + partition.topic(), partition.lag(), Long::sum));
        return Charts.bars("Consumer lag (records)", lagByGroup);
    }

    private List<String> times() {
        return samples().stream().map(sample -> CLOCK.format(sample.takenAt())).toList();
    }

    private List<LagSample> samples() {
        return samples == null ? List.of() : samples;
    }

    public double getOldestPendingAgeSeconds() {
        return oldestPendingAgeSeconds;
    }

    public Map<String, Long> getRowsByStatus() {
        return rowsByStatus;
    }

    public List<PartitionLag> getPartitions() {
        return partitions == null ? List.of() : partitions;
    }

    public List<Map.Entry<String, Long>> getConsumerDeadLetters() {
        return List.copyOf(consumerDeadLetters.entrySet());
    }

    /** The CDC mode's replication slot, when it exists (in any mode). */
    public SlotLag getSlot() {
        return slot;
    }

    public String getConsumerError() {
        return consumerError;
    }
}

package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.pages.control.Charts;
import io.outboxrelay.lag.boundary.LagSnapshot;
import io.outboxrelay.lag.boundary.PublishRate;
import io.outboxrelay.lag.entity.PartitionLag;
import jakarta.annotation.PostConstruct;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Lag, redrawn every few seconds while the page is open: rows by status, the age of the
 * oldest event not yet published and this server's publish rate (as lines over the last
 * {@value #SAMPLES} samples), and each consumer group's lag.
 */
@Named("outboxLag")
@ViewScoped
public class LagPage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final int SAMPLES = 120;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Inject
    LagSnapshot snapshot;

    @Inject
    PublishRate publishRate;

    private final Deque<String> times = new ArrayDeque<>();
    private final Deque<Double> ages = new ArrayDeque<>();
    private final Deque<Double> rates = new ArrayDeque<>();
    private Map<String, Long> rowsByStatus = new TreeMap<>();
    private transient List<PartitionLag> partitions = List.of();
    private String consumerError;

    /** Reads the latest lag snapshot (refreshed by the server every {@code outbox.lag.refresh-ms}). */
    @PostConstruct
    public void refresh() {
        LagSnapshot.Figures figures = snapshot.figures();
        rowsByStatus = new TreeMap<>(figures.rowsByStatus());
        sample(LocalTime.now().truncatedTo(ChronoUnit.SECONDS).format(CLOCK), figures.oldestPendingAgeSeconds(),
                publishRate.perSecond());
        partitions = figures.consumers();
        consumerError = figures.kafkaError() != null ? figures.kafkaError()
                : figures.databaseError();
    }

    private void sample(String time, double age, double rate) {
        times.addLast(time);
        ages.addLast(age);
        rates.addLast(rate);
        if (times.size() > SAMPLES) {
            times.removeFirst();
            ages.removeFirst();
            rates.removeFirst();
        }
    }

    public String getStatusChart() {
        return Charts.bars("Rows by status", rowsByStatus);
    }

    public String getAgeChart() {
        return Charts.line("Oldest pending age (s)", new ArrayList<>(times), new ArrayList<>(ages));
    }

    public String getRateChart() {
        return Charts.line("Publish rate (events/s, this server)", new ArrayList<>(times), new ArrayList<>(rates));
    }

    /** Total lag per consumer group and topic. */
    public String getConsumerChart() {
        Map<String, Long> lagByGroup = new TreeMap<>();
        partitions.forEach(partition -> lagByGroup.merge(partition.group() + " · " + partition.topic(), partition.lag(), Long::sum));
        return Charts.bars("Consumer lag (records)", lagByGroup);
    }

    public double getOldestPendingAgeSeconds() {
        return ages.isEmpty() ? 0 : ages.getLast();
    }

    public Map<String, Long> getRowsByStatus() {
        return rowsByStatus;
    }

    public List<PartitionLag> getPartitions() {
        return partitions;
    }

    public String getConsumerError() {
        return consumerError;
    }
}

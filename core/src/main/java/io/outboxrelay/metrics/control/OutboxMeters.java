package io.outboxrelay.metrics.control;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.outboxrelay.consumer.entity.ConsumerOutcome;
import io.outboxrelay.lag.boundary.LagSnapshot;
import io.outboxrelay.outbox.entity.EventStatus;
import io.outboxrelay.relay.boundary.OutageGate;
import io.outboxrelay.relay.entity.ClaimReport;
import io.outboxrelay.relay.entity.RoundReport;
import io.outboxrelay.retention.entity.RowsDeleted;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters, with bounded tags only (status, result, consumer group, topic, partition, table:
 * never an event id). Names as Prometheus shows them are in docs/operations.md.
 */
@ApplicationScoped
public class OutboxMeters {

    @Inject
    LagSnapshot lag;

    @Inject
    OutageGate outage;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private Timer commitToAck;
    private Timer round;
    private Timer marking;
    private DistributionSummary batchSize;
    private DistributionSummary attempts;
    private MultiGauge consumerLag;
    private MultiGauge oldestUnconsumed;
    private MultiGauge consumerDeadLetters;
    private Counter sent;
    private Counter retried;
    private Counter deadLettered;
    private Counter dead;
    /** Per consumer group and result, made at the first record: a record costs a map lookup, not a registration. */
    private final Map<String, Counter> consumerRecords = new ConcurrentHashMap<>();
    private final Map<String, Counter> consumerFailures = new ConcurrentHashMap<>();
    private final Map<String, Counter> consumerRetries = new ConcurrentHashMap<>();
    private final Map<String, Timer> consumerHandling = new ConcurrentHashMap<>();
    private final Set<String> deadLetterGroups = ConcurrentHashMap.newKeySet();
    private final Map<RoundReport.Path, Counter> sentByPath = new EnumMap<>(RoundReport.Path.class);
    private final Map<RoundReport.Path, Timer> claimsByPath = new EnumMap<>(RoundReport.Path.class);

    @Inject
    @ConfigProperty(name = "outbox.cdc.slot.max-retained-bytes", defaultValue = "1073741824")
    long slotRetainedLimitBytes;

    @PostConstruct
    void register() {
        for (EventStatus status : EventStatus.values()) {
            Gauge.builder("outbox.events", lag, snapshot -> snapshot.figures().rowsByStatus().getOrDefault(status.name(), 0L))
                    .description("Outbox rows in this state (SENT is PostgreSQL's estimate)")
                    .tag("status", status.name())
                    .register(registry);
        }
        Gauge.builder("outbox.oldest.pending.age", lag, snapshot -> snapshot.figures().oldestPendingAgeSeconds())
                .description("Age of the oldest event committed but not yet published")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("outbox.cdc.slot.present", lag, snapshot -> snapshot.figures().slot().present() ? 1 : 0)
                .description("1 while the CDC mode's replication slot (outbox.cdc.slot) exists, in any mode, else 0")
                .register(registry);
        Gauge.builder("outbox.cdc.slot.active", lag, snapshot -> snapshot.figures().slot().active() ? 1 : 0)
                .description("1 while a server streams from the CDC mode's replication slot, else 0")
                .register(registry);
        Gauge.builder("outbox.cdc.slot.retained", lag, snapshot -> snapshot.figures().slot().retainedBytes())
                .description("Write-ahead log PostgreSQL keeps for the CDC mode's slot (0 without a slot)")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("outbox.cdc.slot.retained.limit", this, meters -> meters.slotRetainedLimitBytes)
                .description("The most WAL the slot should keep (outbox.cdc.slot.max-retained-bytes); an alert compares")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("outbox.relay.outage", outage, gate -> gate.inOutage() ? 1 : 0)
                .description("1 while this server's relay finds Kafka unreachable and pauses, else 0")
                .register(registry);
        commitToAck = Timer.builder("outbox.commit.to.ack")
                .description("Time from an event's commit to Kafka's acknowledgement")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        round = Timer.builder("outbox.relay.round")
                .description("Duration of a relay round that claimed events: claim, publish, record")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry);
        marking = Timer.builder("outbox.relay.mark")
                .description("Duration of a relay round's SENT mark: one statement for every event Kafka acknowledged")
                .register(registry);
        batchSize = DistributionSummary.builder("outbox.relay.batch")
                .description("Events claimed by a relay round")
                .baseUnit("events")
                .publishPercentileHistogram()
                .maximumExpectedValue(10_000.0)
                .register(registry);
        attempts = DistributionSummary.builder("outbox.publish.failed.attempts")
                .description("Failed attempts an event had before Kafka acknowledged it")
                .publishPercentileHistogram()
                .maximumExpectedValue(100.0)
                .register(registry);
        for (RoundReport.Path path : RoundReport.Path.values()) {
            sentByPath.put(path, Counter.builder("outbox.relay.sent")
                    .description("Events Kafka acknowledged, by how the relay found them: claim (the polling claim; in"
                            + " CDC mode the safety net, which takes what the change stream left) or stream (CDC mode)")
                    .tag("path", path.name().toLowerCase(Locale.ROOT))
                    .register(registry));
            claimsByPath.put(path, Timer.builder("outbox.relay.claim")
                    .description("Duration of every claim of the relay, also those that found nothing, by how it looked:"
                            + " claim (due rows; in CDC mode the safety net's) or stream (the ids the change stream read)")
                    .tag("path", path.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        sent = publishResult("sent");
        retried = publishResult("retry");
        deadLettered = publishResult("dlt");
        dead = publishResult("dead");
        consumerLag = MultiGauge.builder("outbox.consumer.lag")
                .description("Records a consumer group has not committed yet, per topic and partition")
                .baseUnit("records")
                .register(registry);
        oldestUnconsumed = MultiGauge.builder("outbox.consumer.oldest.unconsumed.age")
                .description("How long ago the oldest record a consumer group has not consumed yet was written, per topic")
                .baseUnit("seconds")
                .register(registry);
        consumerDeadLetters = MultiGauge.builder("outbox.consumer.dead.letters")
                .description("Records a consumer group gave up on that wait for an operator (consumer_dead_letter)")
                .baseUnit("records")
                .register(registry);
    }

    private Counter publishResult(String result) {
        return Counter.builder("outbox.publish.results")
                .description("Publish outcomes: sent, retry (will be tried again), dlt (on the dead-letter topic), dead")
                .tag("result", result)
                .register(registry);
    }

    void onClaim(@Observes ClaimReport claim) {
        claimsByPath.get(claim.path()).record(claim.duration());
    }

    void onRound(@Observes RoundReport report) {
        report.commitToAck().forEach(commitToAck::record);
        report.sentAttempts().forEach(attempts::record);
        round.record(report.duration());
        if (report.sent() > 0) {
            marking.record(report.marking());
        }
        batchSize.record(report.claimed());
        sent.increment(report.sent());
        sentByPath.get(report.path()).increment(report.sent());
        retried.increment(report.retried());
        deadLettered.increment(report.deadLettered());
        dead.increment(report.dead());
    }

    void onConsumed(@Observes ConsumerOutcome outcome) {
        String result = outcome.kind().name().toLowerCase(Locale.ROOT);
        consumerRecords.computeIfAbsent(outcome.group() + '\n' + result, key -> Counter.builder("outbox.consumer.records")
                        .description("Records a consumer group settled: processed, duplicate (already done), dead_lettered")
                        .tags("group", outcome.group(), "result", result)
                        .register(registry))
                .increment();
        consumerHandling.computeIfAbsent(outcome.group(), group -> Timer.builder("outbox.consumer.handling")
                        .description("Time a consumer group took to settle a record: handled, skipped or dead-lettered,"
                                + " retries and backoff included")
                        .tag("group", group)
                        .publishPercentileHistogram()
                        .minimumExpectedValue(Duration.ofMillis(1))
                        .maximumExpectedValue(Duration.ofMinutes(5))
                        .register(registry))
                .record(outcome.handling());
        if (outcome.retries() > 0) {
            consumerRetries.computeIfAbsent(outcome.group(), group -> Counter.builder("outbox.consumer.retries")
                            .description("Handler attempts of a consumer group that failed and were tried again")
                            .tag("group", group)
                            .register(registry))
                    .increment(outcome.retries());
        }
        if (outcome.failedAttempts() > 0) {
            consumerFailures.computeIfAbsent(outcome.group(), group -> Counter.builder("outbox.consumer.failures")
                            .description("Failed handler attempts of a consumer group (each retried or dead-lettered)")
                            .tag("group", group)
                            .register(registry))
                    .increment(outcome.failedAttempts());
        }
    }

    void onRowsDeleted(@Observes RowsDeleted deleted) {
        Counter.builder("outbox.retention.deleted")
                .description("Rows the retention job deleted")
                .tag("table", deleted.table())
                .register(registry)
                .increment(deleted.rows());
    }

    /** After each lag snapshot, so the per-partition gauges follow the groups and partitions that exist. */
    void onLagMeasured(@Observes LagSnapshot.Figures figures) {
        consumerLag.register(figures.consumers().stream()
                .map(partition -> MultiGauge.Row.of(Tags.of("group", partition.group(), "topic", partition.topic(),
                        "partition", Integer.toString(partition.partition())), partition.lag()))
                .toList(), true);
        Map<Tags, Double> oldest = new HashMap<>();
        figures.consumers().forEach(partition -> oldest.merge(Tags.of("group", partition.group(), "topic", partition.topic()),
                partition.oldestUnconsumedAgeSeconds(), Math::max));
        oldestUnconsumed.register(oldest.entrySet().stream().map(entry -> MultiGauge.Row.of(entry.getKey(), entry.getValue()))
                .toList(), true);
        deadLetterGroups.addAll(figures.consumerDeadLetters().keySet()); // a group whose last one was replayed shows 0
        consumerDeadLetters.register(deadLetterGroups.stream()
                .map(group -> MultiGauge.Row.of(Tags.of("group", group), figures.consumerDeadLetters().getOrDefault(group, 0L)))
                .toList(), true);
    }

    /** Everything, in the Prometheus text exposition format. */
    public String scrape() {
        return registry.scrape();
    }
}

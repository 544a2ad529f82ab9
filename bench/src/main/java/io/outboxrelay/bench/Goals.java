package io.outboxrelay.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The goals the project set for Outbox Relay, each beside what this run measured and whether that
 * meets it: computed from the figures, nothing asserted. A figure the run did not take is "not
 * measured".
 */
final class Goals {

    static final double DRAIN_OVER_DEBEZIUM = 1.25;
    static final double DRAIN_OVER_POLLER = 200;
    static final int STEADY_RATE = 1_000;
    static final double STEADY_P50_MS = 5;
    static final double STEADY_P99_MS = 20;
    static final double WRITE_PATH = 0.77;
    static final double BACKLOG = 0.9;

    private static final String MET = "met";
    private static final String NOT_MET = "**not met**";
    private static final String NOT_MEASURED = "not measured";

    /** One goal, what was measured and whether it met the goal. */
    record Row(String goal, String measured, String status) {
    }

    private Goals() {
    }

    static List<Row> of(Report report) {
        Figures figures = report.figures();
        List<Row> rows = new ArrayList<>();
        int relayRows = report.rowsDrained().getOrDefault("outbox-relay", 0);
        String drain = relayRows == 0 ? "Drain" : String.format(Locale.ROOT, "Drain %,d rows", relayRows);
        rows.add(ratio(drain + ": Outbox Relay (defaults) ÷ debezium ≥ " + times(DRAIN_OVER_DEBEZIUM),
                report.medianOf("outbox-relay"), report.medianOf("debezium"), "events/s", DRAIN_OVER_DEBEZIUM, ""));
        Integer pollerRows = report.rowsDrained().get("seeds-poller");
        rows.add(ratio(drain + ": Outbox Relay (defaults) ÷ seeds-poller ≥ " + times(DRAIN_OVER_POLLER),
                report.medianOf("outbox-relay"), report.medianOf("seeds-poller"), "events/s", DRAIN_OVER_POLLER,
                pollerRows == null ? "" : String.format(Locale.ROOT, "; the poller drained %,d rows", pollerRows)));
        for (String relay : List.of(OutboxRelayRows.NAME, "outbox-relay")) {
            steady(rows, figures.steady(), relay);
        }
        WritePath.Result withRelay = figures.withoutConsumers();
        WritePath.Result withoutAppend = figures.withoutAppend();
        rows.add(ratio("Write path: orders/s with the append and the relay running ÷ without the append ≥ "
                        + String.format(Locale.ROOT, "%.2f", WRITE_PATH), withRelay == null ? Double.NaN : withRelay.perSecond(),
                withoutAppend == null ? Double.NaN : withoutAppend.perSecond(), "orders/s", WRITE_PATH, ""));
        BacklogIndependence.Result backlog = figures.backlog();
        rows.add(ratio(String.format(Locale.ROOT, "Drain with %s SENT rows ÷ with an empty table ≥ %.1f (events/s)",
                        backlog == null ? "millions of" : String.format(Locale.ROOT, "%,d", backlog.with().sentRows()), BACKLOG),
                backlog == null ? Double.NaN : backlog.with().eventsPerSecond(),
                backlog == null ? Double.NaN : backlog.without().eventsPerSecond(), "events/s", BACKLOG, ""));
        rows.add(memory(figures, relayRows, drain));
        return rows;
    }

    static String markdown(List<Row> rows) {
        StringBuilder md = new StringBuilder("\n### Goals\n\nComputed from this run's figures; nothing is asserted.\n\n");
        md.append("| goal | measured | |\n|---|---|---|\n");
        for (Row row : rows) {
            md.append("| ").append(row.goal()).append(" | ").append(row.measured()).append(" | ").append(row.status()).append(" |\n");
        }
        return md.toString();
    }

    private static Row ratio(String goal, double ours, double theirs, String unit, double atLeast, String note) {
        if (Double.isNaN(ours) || Double.isNaN(theirs) || theirs <= 0) {
            return new Row(goal, "–", NOT_MEASURED);
        }
        double ratio = ours / theirs;
        return new Row(goal, String.format(Locale.ROOT, "%s (%,.0f ÷ %,.0f %s%s)", times(ratio), ours, theirs, unit, note),
                ratio >= atLeast ? MET : NOT_MET);
    }

    /** The latency goals at {@value #STEADY_RATE} events/s for one of Outbox Relay's steady writers, and its highest rate. */
    private static void steady(List<Row> rows, List<SteadyLatency.Step> steps, String contender) {
        String at = String.format(Locale.ROOT, "Steady at %,d events/s, commit → consumed, %s: ", STEADY_RATE, contender);
        List<SteadyLatency.Step> own = steps.stream().filter(step -> step.contender().equals(contender)).toList();
        int highest = own.stream().filter(SteadyLatency.Step::sustained).mapToInt(SteadyLatency.Step::rate).max().orElse(0);
        boolean failedBelow = own.stream().anyMatch(step -> !step.sustained() && step.rate() <= STEADY_RATE);
        Optional<SteadyLatency.Step> step = at(steps, contender);
        String unsustained = own.isEmpty() || (step.isEmpty() && !failedBelow) ? null
                : String.format(Locale.ROOT, "%,d/s not sustained (highest sustained: %s)", STEADY_RATE,
                highest == 0 ? "none" : String.format(Locale.ROOT, "%,d/s", highest));
        rows.add(latency(at + "p50 ≤ " + ms(STEADY_P50_MS), step, SteadyLatency.Step::p50, STEADY_P50_MS, null, unsustained));
        rows.add(latency(at + "p99 ≤ " + ms(STEADY_P99_MS), step, SteadyLatency.Step::p99, STEADY_P99_MS, null, unsustained));
        Optional<SteadyLatency.Step> debezium = at(steps, "debezium");
        rows.add(latency(at + "p99 below debezium's at the same rate", step, SteadyLatency.Step::p99,
                debezium.map(SteadyLatency.Step::p99).orElse(Double.NaN), "debezium", unsustained));
        String goal = String.format(Locale.ROOT, "Highest sustained steady rate, %s: ≥ %,d events/s", contender, STEADY_RATE);
        rows.add(own.isEmpty() ? new Row(goal, "–", NOT_MEASURED)
                : new Row(goal, highest == 0 ? "none of the rates tried" : String.format(Locale.ROOT, "%,d events/s", highest),
                highest >= STEADY_RATE ? MET : failedBelow ? NOT_MET : NOT_MEASURED));
    }

    /**
     * {@code step}'s latency against {@code limit}: at most the limit, or strictly below it when the
     * limit is another contender's ({@code versus}, null for a fixed limit).
     */
    private static Row latency(String goal, Optional<SteadyLatency.Step> step, ToDoubleFunction<SteadyLatency.Step> of,
                               double limit, String versus, String unsustained) {
        if (step.isPresent() && step.get().sustained()) {
            double value = of.applyAsDouble(step.get());
            if (Double.isNaN(value) || Double.isNaN(limit)) {
                return new Row(goal, Double.isNaN(value) ? "–" : ms(value) + " (" + versus + ": not measured)", NOT_MEASURED);
            }
            return new Row(goal, ms(value) + (versus == null ? "" : " (" + versus + ": " + ms(limit) + ")"),
                    (versus == null ? value <= limit : value < limit) ? MET : NOT_MET);
        }
        return unsustained == null ? new Row(goal, "–", NOT_MEASURED) : new Row(goal, unsustained, NOT_MET);
    }

    private static Row memory(Figures figures, int relayRows, String drain) {
        String goal = drain + " (Outbox Relay, defaults): no OutOfMemoryError in the server";
        ServerMemory memory = figures.memory();
        String measured = String.format(Locale.ROOT, "%s; peak RSS %s MiB, peak used heap %s MiB",
                Figures.afterDrains(memory, relayRows), memory == null || memory.peakRssMiB() == 0 ? "–" : memory.peakRssMiB(),
                memory == null || memory.peakHeapMiB() == 0 ? "–" : memory.peakHeapMiB());
        if (figures.outOfMemory() == null || relayRows == 0) {
            return new Row(goal, "server log not looked at; " + measured, NOT_MEASURED);
        }
        return figures.outOfMemory() ? new Row(goal, "OutOfMemoryError in the server log; " + measured, NOT_MET)
                : new Row(goal, "none in the server log; " + measured, MET);
    }

    private static Optional<SteadyLatency.Step> at(List<SteadyLatency.Step> steps, String contender) {
        return steps.stream().filter(step -> step.contender().equals(contender) && step.rate() == STEADY_RATE).findFirst();
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, ratio >= 10 ? "%.0f×" : "%.2f×", ratio);
    }

    private static String ms(double millis) {
        return String.format(Locale.ROOT, "%.1f ms", millis);
    }
}

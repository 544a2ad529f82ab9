package io.outboxrelay.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The figures besides the backlog drain: steady latency, write-path cost, backlog independence,
 * the server's memory and the tuned server's settings. {@code outOfMemory}: whether the log of the
 * servers this run started shows an OutOfMemoryError (null: no such log). What was not measured
 * says why in {@code notMeasured}.
 */
record Figures(List<SteadyLatency.Step> steady, Map<String, String> steadyWrites, WritePath.Result withAppend,
               WritePath.Result withoutConsumers, WritePath.Result relayOff, WritePath.Result withoutAppend,
               BacklogIndependence.Result backlog, ServerMemory memory, ServerMemory tunedMemory, String tunedSettings,
               Boolean outOfMemory, List<String> notMeasured) {

    /** The rate latency is compared at in the chart: 1,000 events/s, or the mode's only rate. */
    int referenceRate() {
        return steady.stream().anyMatch(step -> step.rate() == 1_000) ? 1_000
                : steady.stream().mapToInt(SteadyLatency.Step::rate).min().orElse(0);
    }

    /** The highest rate each contender sustained (0: none). */
    Map<String, Integer> highestSustained() {
        Map<String, Integer> highest = new LinkedHashMap<>();
        for (SteadyLatency.Step step : steady) {
            highest.merge(step.contender(), step.sustained() ? step.rate() : 0, Math::max);
        }
        return highest;
    }

    /** A steady step's CPU per event by process, as JSON members; empty without {@code /proc}. */
    private static String cpuJson(SteadyLatency.Step step) {
        if (step.cpu() == null) {
            return "";
        }
        return ", \"cpuMicrosPerEvent\": " + step.cpu().microsJson()
                + String.format(Locale.ROOT, ", \"busy\": %.2f", step.busy());
    }

    /** Where the machine's CPU went in each steady step, per event written, by process. */
    private String steadyCpuMarkdown() {
        StringBuilder md = new StringBuilder();
        for (SteadyLatency.Step s : steady) {
            if (s.cpu() != null) {
                md.append(String.format(Locale.ROOT, "| %s | %,d %s %.0f%% |%n", s.contender(), s.rate(),
                        s.cpu().microsCells(), 100 * s.busy()));
            }
        }
        return md.isEmpty() ? "" : "\nWhere the CPU went in each step: microseconds per event written, from /proc, by process,"
                + " from the writer's start until every event arrived (or the grace ran out); busy: the share of the"
                + " machine's cores not idle over that span. The writers and consumers run in the harness, and so do"
                + " Debezium, gruelbox, the seeds' poller and raw-kafka; Outbox Relay's relay runs in the server.\n\n"
                + "| contender | target events/s | server | PostgreSQL | Kafka | harness | other | machine | busy |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n" + md;
    }

    /** Per contender, the step shown in the chart: at the reference rate if sustained, else its highest sustained one. */
    List<SteadyLatency.Step> charted() {
        List<SteadyLatency.Step> shown = new ArrayList<>();
        for (String contender : highestSustained().keySet()) {
            Optional<SteadyLatency.Step> atReference = steady.stream()
                    .filter(s -> s.contender().equals(contender) && s.sustained() && s.rate() == referenceRate()).findFirst();
            Optional<SteadyLatency.Step> highest = steady.stream()
                    .filter(s -> s.contender().equals(contender) && s.sustained() && s.rate() == highestSustained().get(contender))
                    .findFirst();
            atReference.or(() -> highest).ifPresent(shown::add);
        }
        return shown;
    }

    String json() {
        StringBuilder json = new StringBuilder();
        json.append("  \"outboxRelayServerMaxHeapMiB\": ").append(orNull(memory == null ? 0 : memory.peakHeapMiB())).append(",\n");
        json.append("  \"steadyLatency\": {\"figure\": \"writer committing one event per transaction at a fixed rate; latency from")
                .append(" the commit (raw: the send call) to a consumer receiving it; sustained = writer kept 90% of the rate, every")
                .append(" event arrived within ").append(SteadyLatency.GRACE.toSeconds()).append(" s after it stopped and latency")
                .append(" did not keep growing\",\n");
        json.append("    \"writers\": {");
        List<String> writers = new ArrayList<>();
        steadyWrites.forEach((name, writes) -> writers.add("\"" + name + "\": \"" + Report.escape(writes) + "\""));
        json.append(String.join(", ", writers)).append("},\n    \"steps\": [\n");
        List<String> steps = new ArrayList<>();
        for (SteadyLatency.Step s : steady) {
            steps.add(String.format(Locale.ROOT, "      {\"contender\": \"%s\", \"rate\": %d, \"seconds\": %.0f, \"written\": %d,"
                    + " \"writtenPerSecond\": %.0f, \"consumed\": %d, \"sustained\": %b, \"note\": \"%s\", \"p50Ms\": %s,"
                    + " \"p95Ms\": %s, \"p99Ms\": %s, \"maxMs\": %s, \"slowest\": \"%s\"", s.contender(), s.rate(),
                    s.seconds(), s.written(), s.writtenPerSecond(), s.consumed(), s.sustained(), Report.escape(s.note()),
                    ms(s.p50()), ms(s.p95()), ms(s.p99()), ms(s.max()), Report.escape(s.slowest())) + cpuJson(s) + "}");
        }
        json.append(String.join(",\n", steps)).append("\n    ],\n    \"highestSustained\": {");
        List<String> highest = new ArrayList<>();
        highestSustained().forEach((name, rate) -> highest.add("\"" + name + "\": " + rate));
        json.append(String.join(", ", highest)).append("}\n  },\n");
        json.append("  \"writePath\": {\"withAppend\": ").append(writePath(withAppend))
                .append(", \"withAppendWithoutConsumers\": ").append(writePath(withoutConsumers))
                .append(", \"withAppendRelayOff\": ").append(writePath(relayOff))
                .append(", \"withoutAppend\": ").append(writePath(withoutAppend)).append("},\n");
        json.append("  \"backlogIndependence\": ").append(backlog == null ? "null" : String.format(Locale.ROOT,
                "{\"fill\": \"%s\", \"without\": %s, \"with\": %s}", Report.escape(backlog.fill()), level(backlog.without()),
                level(backlog.with()))).append(",\n");
        json.append("  \"outboxRelayServerAfterDrains\": ").append(afterDrains(memory)).append(",\n");
        json.append("  \"outboxRelayServerOutOfMemoryError\": ").append(outOfMemory).append(",\n");
        json.append("  \"tuned\": ").append(tunedSettings == null ? "null" : String.format(Locale.ROOT,
                "{\"settings\": \"%s\", \"maxRssMiB\": %s, \"maxHeapMiB\": %s, \"afterDrains\": %s}",
                Report.escape(tunedSettings), orNull(tunedMemory.peakRssMiB()), orNull(tunedMemory.peakHeapMiB()),
                afterDrains(tunedMemory))).append(",\n");
        json.append("  \"notMeasured\": [").append(String.join(", ", notMeasured.stream()
                .map(reason -> "\"" + Report.escape(reason) + "\"").toList())).append("],\n");
        return json.toString();
    }

    /** Per drain: rows, GC share of its wall time and used heap after a full GC; null when not measured. */
    private static String afterDrains(ServerMemory memory) {
        if (memory == null || memory.drains().isEmpty()) {
            return "null";
        }
        return "[" + String.join(", ", memory.drains().stream().map(after -> String.format(Locale.ROOT,
                "{\"rows\": %d, \"gcTimeShare\": %s, \"usedHeapAfterGcMiB\": %s}", after.rows(),
                Double.isNaN(after.gcShare()) ? "null" : String.format(Locale.ROOT, "%.4f", after.gcShare()),
                orNull(after.heapAfterGcMiB()))).toList()) + "]";
    }

    /**
     * The drains of {@code rows} (the drain figure's; the backlog figure drains fewer): the highest
     * GC share and used heap after GC, as "GC x% of the time, y MiB used after a full GC", or "not measured".
     */
    static String afterDrains(ServerMemory memory, int rows) {
        List<ServerMemory.AfterDrain> drains = memory == null ? List.of()
                : memory.drains().stream().filter(after -> after.rows() == rows).toList();
        double gc = drains.stream().mapToDouble(ServerMemory.AfterDrain::gcShare).filter(share -> !Double.isNaN(share))
                .max().orElse(Double.NaN);
        long heap = drains.stream().mapToLong(ServerMemory.AfterDrain::heapAfterGcMiB).max().orElse(0);
        if (Double.isNaN(gc) && heap == 0) {
            return memory == null || memory.drains().isEmpty()
                    ? "GC time and used heap after GC not measured (the server's PID was not known)"
                    : String.format(Locale.ROOT, "GC time and used heap after GC not measured for drains of %,d rows", rows);
        }
        return String.format(Locale.ROOT, "GC %s of the drain's time, %s MiB used after a full GC (the highest of %d drains)",
                Double.isNaN(gc) ? "time not measured" : String.format(Locale.ROOT, "%.1f%%", 100 * gc),
                heap == 0 ? "not measured" : Long.toString(heap), drains.size());
    }

    /** The write-path servers measured, in the report's order. */
    private List<WritePath.Result> writePaths() {
        return Stream.of(withAppend, withoutConsumers, relayOff, withoutAppend).filter(Objects::nonNull).toList();
    }

    /** Where each write-path server's CPU went per order, by process, while its orders were counted. */
    private void writeCpu(StringBuilder md) {
        List<WritePath.Result> counted = writePaths().stream().filter(result -> result.cpu() != null).toList();
        if (counted.isEmpty()) {
            return;
        }
        md.append("\n| server | CPU ms per order: server | PostgreSQL | Kafka | harness | other | machine |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (WritePath.Result result : counted) {
            Map<ProcessCpu.Role, Double> millis = result.cpu().millis();
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |%n", result.server(),
                    millis.get(ProcessCpu.Role.SERVER), millis.get(ProcessCpu.Role.POSTGRESQL),
                    millis.get(ProcessCpu.Role.KAFKA), millis.get(ProcessCpu.Role.HARNESS),
                    millis.get(ProcessCpu.Role.OTHER), result.cpu().machineMillis()));
        }
        md.append("\nCPU from /proc over each server's counted window, divided by its orders: each process's own time and"
                + " its reaped children's (PostgreSQL's ended backends and autovacuum workers count whole); machine: all"
                + " non-idle time; other: the rest.\n");
    }

    private static String writePath(WritePath.Result result) {
        return result == null ? "null" : String.format(Locale.ROOT,
                "{\"server\": \"%s\", \"clients\": %d, \"seconds\": %.0f, \"orders\": %d, \"ordersPerSecond\": %.0f,"
                        + " \"lowestWindowPerSecond\": %.0f, \"highestWindowPerSecond\": %.0f, \"failures\": %d,"
                        + " \"warmUpSeconds\": %.0f, \"warmedBy\": \"%s\", \"compileSecondsWhileCounted\": %s,"
                        + " \"consumersBehindAtEnd\": %s, \"consumersCaughtUpSeconds\": %s, \"cpuPerOrder\": %s}",
                Report.escape(result.server()), result.clients(), result.seconds(), result.orders(), result.perSecond(),
                result.lowWindow(), result.highWindow(), result.failures(), result.warmUpSeconds(), result.warmedBy(),
                Double.isNaN(result.compileSeconds()) ? "null" : String.format(Locale.ROOT, "%.1f", result.compileSeconds()),
                result.consumersBehind() < 0 ? "null" : Long.toString(result.consumersBehind()),
                Double.isNaN(result.catchUpSeconds()) ? "null" : String.format(Locale.ROOT, "%.1f", result.catchUpSeconds()),
                result.cpu() == null ? "null" : result.cpu().json());
    }

    private static String level(BacklogIndependence.Level level) {
        return String.format(Locale.ROOT, "{\"sentRows\": %d, \"pending\": %d, \"eventsPerSecond\": %.0f,"
                        + " \"committedSeconds\": %.2f, \"rounds\": %d, \"meanRoundMs\": %s, \"meanBatch\": %s}", level.sentRows(),
                level.pending(), level.eventsPerSecond(), level.committedSeconds(), level.rounds(), ms(level.meanRoundMillis()),
                ms(level.meanBatch()));
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String orNull(long value) {
        return value > 0 ? Long.toString(value) : "null";
    }

    /** {@code relayRows}: the rows of Outbox Relay's drains in the drain figure, whose memory is shown. */
    String markdown(int relayRows) {
        StringBuilder md = new StringBuilder();
        if (!steady.isEmpty()) {
            md.append("\n### Steady latency: commit → consumed (ms)\n\n");
            md.append("One event per transaction at a fixed rate; sustained = the writer kept at least 90% of the rate, every event")
                    .append(" arrived within ").append(SteadyLatency.GRACE.toSeconds()).append(" s after it stopped, and the last")
                    .append(" quarter's median latency stayed under twice the first quarter's (+50 ms). Each contender first")
                    .append(" writes some events unmeasured to warm up. The listed rates run until one is not sustained; then the")
                    .append(" rate halves while none was, doubles from the highest sustained, and bisects between the highest")
                    .append(" sustained and the lowest not.\n\n");
            md.append("| contender | target events/s | written events/s | sustained | p50 | p95 | p99 | max |\n")
                    .append("|---|---:|---:|---|---:|---:|---:|---:|\n");
            for (SteadyLatency.Step s : steady) {
                md.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %s | %s | %s | %s | %s |%n", s.contender(), s.rate(),
                        s.writtenPerSecond(), s.sustained() ? "yes" : "**no**: " + s.note(), ms(s.p50()), ms(s.p95()),
                        ms(s.p99()), ms(s.max())));
            }
            md.append("\nWhen each step's slowest events (at or over its p99) were committed, in bursts of commits under 100 ms"
                    + " apart, the largest first (UTC; to look up in the logs of the same moment):\n\n");
            for (SteadyLatency.Step s : steady) {
                md.append(String.format(Locale.ROOT, "- %s at %,d events/s: %s%n", s.contender(), s.rate(), s.slowest()));
            }
            md.append(steadyCpuMarkdown());
            md.append("\nHighest rate sustained (of those tried): ");
            List<String> highest = new ArrayList<>();
            highestSustained().forEach((name, rate) -> highest.add(name + " " + (rate == 0 ? "none" : String.format(Locale.ROOT, "%,d/s", rate))));
            md.append(String.join(", ", highest)).append(".\n\nWriters: ");
            List<String> writers = new ArrayList<>();
            steadyWrites.forEach((name, writes) -> writers.add(name + ": " + writes));
            md.append(String.join("; ", writers)).append(".\n");
        }
        List<WritePath.Result> results = writePaths();
        if (!results.isEmpty()) {
            md.append("\n### Write path: orders created through the API, ").append(results.get(0).clients())
                    .append(" clients\n\n");
            md.append("| server | orders/s | windows of up to 10 s | orders | failed | warm-up | JIT compiling while counted"
                    + " | sample consumers behind at the end | caught up after |\n")
                    .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (WritePath.Result result : results) {
                md.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f-%,.0f | %,d | %d | %.0f s, until %s | %s | %s | %s |%n",
                        result.server(), result.perSecond(), result.lowWindow(), result.highWindow(), result.orders(),
                        result.failures(), result.warmUpSeconds(), result.warmedBy().words,
                        Double.isNaN(result.compileSeconds()) ? "–" : String.format(Locale.ROOT, "%.1f s", result.compileSeconds()),
                        result.consumersBehind() < 0 ? "–" : String.format(Locale.ROOT, "%,d", result.consumersBehind()),
                        Double.isNaN(result.catchUpSeconds()) ? "–" : String.format(Locale.ROOT, "%.0f s", result.catchUpSeconds())));
            }
            if (withoutAppend != null && withoutConsumers != null) {
                md.append(String.format(Locale.ROOT, "%nWith the append and the relay running ÷ without the append (the sample"
                        + " consumers on another topic on both servers): %.2f× the orders per second (goal ≥ %.2f).",
                        withoutConsumers.perSecond() / withoutAppend.perSecond(), Goals.WRITE_PATH));
            }
            if (relayOff != null && withoutAppend != null) {
                md.append(String.format(Locale.ROOT, " The append's cost: with the append and the relay off ÷ without the"
                        + " append: %.2f×.", relayOff.perSecond() / withoutAppend.perSecond()));
            }
            if (relayOff != null && withoutConsumers != null) {
                md.append(String.format(Locale.ROOT, " The relay's cost: with the append and the relay running ÷ with the"
                        + " append and the relay off: %.2f×.", withoutConsumers.perSecond() / relayOff.perSecond()));
            }
            md.append(" Each server's clients ran unmeasured for at least the minimum warm-up and on until the server's JIT"
                    + " compiled for at most 2% of each of two 10 s windows (without the server's PID: until three 10 s windows"
                    + " created orders within 5% of their mean), at most four times the minimum and 8 minutes: the warm-up"
                    + " column; failures count the warm-up too.");
            if (withAppend != null) {
                md.append(String.format(Locale.ROOT, " With the sample consumers reading along, the API took %,.0f orders/s;"
                        + " what the consumers had not caught up on when the writing stopped is in the last columns.",
                        withAppend.perSecond()));
            }
            md.append(System.lineSeparator());
            writeCpu(md);
        }
        if (backlog != null) {
            md.append("\n### Backlog independence: the same pending rows drained with and without SENT history\n\n");
            md.append("Each drain's rows are " + backlog.timing().description + "; the fourth column says how long they took"
                    + " to commit.\n\n");
            md.append("| SENT rows in the table | pending drained | events/s | rows committed in (s) | rounds | mean round (ms)"
                    + " | mean batch |\n|---:|---:|---:|---:|---:|---:|---:|\n");
            for (BacklogIndependence.Level level : List.of(backlog.without(), backlog.with())) {
                md.append(String.format(Locale.ROOT, "| %,d | %,d | %,.0f | %.1f | %,d | %s | %s |%n", level.sentRows(),
                        level.pending(), level.eventsPerSecond(), level.committedSeconds(), level.rounds(),
                        ms(level.meanRoundMillis()), ms(level.meanBatch())));
            }
            md.append(String.format(Locale.ROOT, "%nWith the SENT history: %.2f× the events/s, %.2f× the mean round. Filled with %s.%n",
                    backlog.with().eventsPerSecond() / backlog.without().eventsPerSecond(),
                    backlog.with().meanRoundMillis() / backlog.without().meanRoundMillis(), backlog.fill()));
        }
        if (memory != null && (memory.peakRssMiB() > 0 || memory.peakHeapMiB() > 0)) {
            md.append(String.format(Locale.ROOT, "%n### Server memory while draining%n%nUsed heap includes garbage, so each"
                    + " drain ends with a full GC (`jcmd GC.run`) and the used heap after it; GC time is the GCT delta of"
                    + " `jstat -gc` over the drain's wall time.%n%nDefault settings: peak RSS %s MiB, peak used heap %s MiB; %s",
                    orNull(memory.peakRssMiB()), orNull(memory.peakHeapMiB()), afterDrains(memory, relayRows)));
            if (tunedSettings != null) {
                md.append(String.format(Locale.ROOT, ". Tuned: peak RSS %s MiB, peak used heap %s MiB; %s",
                        orNull(tunedMemory.peakRssMiB()), orNull(tunedMemory.peakHeapMiB()),
                        afterDrains(tunedMemory, relayRows)));
            }
            md.append(". ").append(outOfMemory == null ? "The server's log was not looked at (a server this run did not start)."
                    : outOfMemory ? "The server's log shows an **OutOfMemoryError**." : "No OutOfMemoryError in the server's log.")
                    .append("\n");
        }
        if (tunedSettings != null) {
            md.append("\n`outbox-relay-tuned` in the drain table: the server restarted with ").append(tunedSettings)
                    .append("; its rounds ran after the others', not interleaved with them.\n");
        }
        if (!notMeasured.isEmpty()) {
            md.append("\nNot measured in this run: ").append(String.join("; ", notMeasured)).append(".\n");
        }
        return md.toString();
    }
}

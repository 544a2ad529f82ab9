package io.outboxrelay.bench;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures of one run as JSON, Markdown tables with ratios, the goals and what makes the
 * comparison fair, and an SVG chart: drain throughput bars and steady latency percentiles.
 */
record Report(LocalDate date, Machine machine, String mode, PostgresSettings postgres, List<Contender> contenders,
              Map<String, List<Double>> eventsPerSecond, Map<String, List<Double>> committedSeconds,
              Map<String, Integer> rowsDrained, Map<String, Integer> warmUpRows, Map<String, Backlog.Timing> timings,
              Map<String, List<ProcessCpu.PerOrder>> drainCpu, long relayMaxRssKiB, Figures figures) {

    /** How the drains were timed, each timing with the contenders it applied to where they differ. */
    String timed() {
        java.util.Set<Backlog.Timing> used = java.util.EnumSet.noneOf(Backlog.Timing.class);
        timings.forEach((name, timing) -> {
            if (!"raw-kafka".equals(name)) {
                used.add(timing);
            }
        });
        if (used.size() <= 1) {
            return used.isEmpty() ? Backlog.Timing.AFTER_WRITTEN.description : used.iterator().next().description;
        }
        return used.stream().map(timing -> timing.description + " (" + timings.entrySet().stream()
                        .filter(entry -> entry.getValue() == timing && !"raw-kafka".equals(entry.getKey()))
                        .map(Map.Entry::getKey).collect(Collectors.joining(", ")) + ")")
                .collect(Collectors.joining("; or "));
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /** The median events/s of a contender's drains; NaN when it did not drain. */
    double medianOf(String name) {
        List<Double> values = eventsPerSecond.get(name);
        return values == null || values.isEmpty() ? Double.NaN : median(values);
    }

    String json() {
        StringBuilder json = new StringBuilder("{\n");
        json.append("  \"date\": \"").append(date).append("\",\n");
        json.append("  \"machine\": {\"cores\": ").append(machine.cores()).append(", \"memoryMiB\": ").append(machine.memoryMiB())
                .append(", \"os\": \"").append(escape(machine.os())).append("\", \"java\": \"").append(escape(machine.java()))
                .append("\"},\n");
        json.append("  \"mode\": \"").append(mode).append("\",\n");
        json.append("  \"postgres\": ").append(postgres.json()).append(",\n");
        json.append("  \"figure\": \"backlog drain: rows ").append(escape(timed())).append("\",\n");
        json.append("  \"fairness\": [").append(String.join(", ", fairness().stream().map(line -> "\"" + escape(line) + "\"")
                .toList())).append("],\n");
        json.append("  \"outboxRelayServerMaxRssMiB\": ").append(relayMaxRssKiB > 0 ? Long.toString(relayMaxRssKiB / 1024) : "null")
                .append(",\n");
        json.append(figures.json());
        json.append("  \"contenders\": [\n");
        List<String> entries = new ArrayList<>();
        for (Contender contender : contenders) {
            List<Double> values = eventsPerSecond.getOrDefault(contender.name(), List.of());
            entries.add("    {\"name\": \"" + contender.name() + "\", \"settings\": \"" + escape(contender.settings())
                    + "\", \"rows\": " + rowsDrained.getOrDefault(contender.name(), 0) + ", \"timing\": "
                    + (timings.containsKey(contender.name()) ? "\"" + timings.get(contender.name()).option() + "\"" : "null")
                    + ", \"eventsPerSecond\": [" + values.stream().map(v -> String.format(Locale.ROOT, "%.0f", v))
                    .collect(Collectors.joining(", ")) + "], \"committedSeconds\": ["
                    + committedSeconds.getOrDefault(contender.name(), List.of()).stream()
                    .map(v -> String.format(Locale.ROOT, "%.2f", v)).collect(Collectors.joining(", ")) + "], \"median\": "
                    + String.format(Locale.ROOT, "%.0f", medianOf(contender.name())) + cpuJson(contender) + pathsJson(contender)
                    + "}");
        }
        json.append(String.join(",\n", entries)).append("\n  ]\n}\n");
        return json.toString();
    }

    String markdown() {
        double relay = medianOf("outbox-relay");
        double ceiling = medianOf("raw-kafka");
        StringBuilder table = new StringBuilder();
        table.append("Backlog drain, ").append(mode).append(" mode, ").append(date).append(", ").append(machine.cores())
                .append(" cores, ").append(Math.round(machine.memoryMiB() / 1024.0)).append(" GiB, ").append(machine.java())
                .append("\n\n");
        table.append("| contender | rows | events/s (median) | min – max | Outbox Relay ÷ this | rows committed (median) |"
                + "\n|---|---:|---:|---:|---:|---:|\n");
        for (Contender contender : contenders) {
            List<Double> values = eventsPerSecond.getOrDefault(contender.name(), List.of());
            if (values.isEmpty()) {
                continue;
            }
            double median = medianOf(contender.name());
            List<Double> committed = committedSeconds.getOrDefault(contender.name(), List.of());
            table.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f – %,.0f | %s | %s |%n", contender.name(),
                    rowsDrained.get(contender.name()), median, Collections.min(values), Collections.max(values),
                    Double.isNaN(relay) ? "–" : String.format(Locale.ROOT, "%.2f×", relay / median),
                    committed.isEmpty() ? "–" : timings.get(contender.name()) == Backlog.Timing.AFTER_WRITTEN
                            ? String.format(Locale.ROOT, "in %.1f s, before the clock", median(committed))
                            : String.format(Locale.ROOT, "after %.1f of the drain's %.1f s", median(committed),
                            median(values.stream().map(perSecond -> rowsDrained.get(contender.name()) / perSecond).toList()))));
        }
        if (!Double.isNaN(relay) && !Double.isNaN(ceiling)) {
            table.append(String.format(Locale.ROOT, "%nOutbox Relay reaches %.0f%% of the raw Kafka ceiling.", 100 * relay / ceiling));
        }
        if (relayMaxRssKiB > 0) {
            table.append(String.format(Locale.ROOT, " Its server's resident memory peaked at %,d MiB while draining.", relayMaxRssKiB / 1024));
        }
        table.append("\n\nEvery database contender's backlog is ").append(timed()).append(". The last column says how long"
                + " its transactions took to commit (raw-kafka: until its last send() returned). Timed from the first insert, a"
                + " drain that ends soon after its last commit kept up with its writer, and its figure is bounded by how fast"
                + " its rows could be committed on the shared cores, its own work included.\n\n")
                .append(postgres.markdown()).append(".\n");
        table.append(Goals.markdown(Goals.of(this)));
        table.append(cpuMarkdown());
        table.append(pathsMarkdown());
        table.append("\n### Fairness\n\n");
        fairness().forEach(line -> table.append("- ").append(line).append("\n"));
        return table.append(figures.markdown(rowsDrained.getOrDefault("outbox-relay", 0))).toString();
    }

    /** Per round, the CPU microseconds each process spent per event drained (see {@link Backlog.Drained}). */
    private String cpuJson(Contender contender) {
        List<ProcessCpu.PerOrder> rounds = drainCpu.getOrDefault(contender.name(), List.of());
        if (rounds.isEmpty()) {
            return "";
        }
        return ", \"cpuMicrosPerEvent\": [" + rounds.stream().map(ProcessCpu.PerOrder::microsJson)
                .collect(Collectors.joining(", ")) + "]";
    }

    /**
     * Where the machine's CPU went while each contender drained: per event, by process, averaged over its rounds, and
     * how busy that kept the machine's cores at the contender's median rate.
     */
    private String cpuMarkdown() {
        StringBuilder md = new StringBuilder();
        for (Contender contender : contenders) {
            List<ProcessCpu.PerOrder> rounds = drainCpu.getOrDefault(contender.name(), List.of());
            if (rounds.isEmpty()) {
                continue;
            }
            ProcessCpu.PerOrder mean = ProcessCpu.PerOrder.mean(rounds);
            md.append(String.format(Locale.ROOT, "| %s %s %.0f%% |%n", contender.name(), mean.microsCells(),
                    100 * mean.machineMillis() * medianOf(contender.name()) / 1e3 / machine().cores()));
        }
        return md.isEmpty() ? "" : "\n### Where the CPU went while draining\n\nCPU microseconds per event over each drain's"
                + " timed span, from /proc, by process (each process's own time and its reaped children's), averaged over the"
                + " rounds; machine: all non-idle time; busy: machine time per event × the median events/s ÷ the cores. A"
                + " drain timed from the first insert counts its rows' inserts too (the harness's writer, PostgreSQL)."
                + " Debezium, gruelbox, the seeds' poller and raw-kafka run in the harness; Outbox Relay's relay runs in the"
                + " server (the harness only watches the topic's end offsets).\n\n"
                + "| contender | server | PostgreSQL | Kafka | harness | other | machine | busy |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|\n" + md;
    }

    /** For Outbox Relay's contenders: how the relay found each drain's events (see {@link RelayPaths}). */
    private static String pathsJson(Contender contender) {
        if (!(contender instanceof OutboxRelayServer relay) || relay.paths().drains().isEmpty()) {
            return "";
        }
        return ", \"paths\": [" + relay.paths().drains().stream().map(drain -> String.format(Locale.ROOT,
                "{\"rows\": %d, \"seconds\": %.1f, %s}", drain.rows(), drain.seconds(),
                drain.shares().stream().map(share -> String.format(Locale.ROOT,
                        "\"%s\": {\"sent\": %d, \"claims\": %d, \"claimSeconds\": %.2f}", share.path(), share.sent(),
                        share.claims(), share.claimSeconds())).collect(Collectors.joining(", "))))
                .collect(Collectors.joining(", ")) + "]";
    }

    private String pathsMarkdown() {
        StringBuilder md = new StringBuilder();
        for (Contender contender : contenders) {
            if (contender instanceof OutboxRelayServer relay && !relay.paths().drains().isEmpty()) {
                md.append("- ").append(contender.name()).append(": ").append(relay.paths().drains().stream()
                        .map(RelayPaths.Drain::describe).collect(Collectors.joining("; then "))).append(".\n");
            }
        }
        return md.isEmpty() ? "" : "\n### How the relay found the events\n\nPer drain, from the server's own meters"
                + " (outbox_relay_sent_total and outbox_relay_claim_seconds by path): claim is the polling claim, in CDC mode"
                + " the safety net; stream is CDC mode's change stream. Claims include the empty ones.\n\n" + md;
    }

    /** How the drains warmed up: each contender alike, or not at all. */
    String warmedUp() {
        if (warmUpRows.isEmpty()) {
            return "Warm-up: none; each contender's first round drained on a cold JIT.";
        }
        return "Same warm-up: before its first counted round each contender drained a share of its round's rows unmeasured ("
                + warmUpRows.entrySet().stream().map(entry -> entry.getKey() + " " + String.format(Locale.ROOT, "%,d", entry.getValue()))
                        .collect(Collectors.joining(", "))
                + "), as the steady and write figures warm up first; until 2026-12-07 the drains had no warm-up, and most"
                + " contenders' first round was their slowest.";
    }

    /** What is the same for every contender, and what still differs. */
    List<String> fairness() {
        return List.of(
                "Same backlog and timed span: every database contender's backlog is " + timed()
                        + " (Outbox Relay's transactions also NOTIFY outbox_relay, as its own append does on commit)."
                        + (!timings.containsValue(Backlog.Timing.AFTER_WRITTEN) ? "" : " Held back: Outbox Relay's relay by its instance lock, taken by the harness as a second server with the"
                        + " same instance id would take it (it asks again within a second of the release, inside the clock);"
                        + " Debezium's engine runs and reads the WAL, but hands no batch over, so what it decoded before the"
                        + " clock (at most its queue, 16,384 changes) is its head start; gruelbox does not process and the"
                        + " seeds' poller does not run."),
                warmedUp(),
                "Same PostgreSQL, settings pinned (shared_buffers=1GB, max_wal_size=8GB, checkpoint_timeout=15min when the"
                        + " benchmark starts it) and printed above as the server reports them.",
                "Same records: key (one of " + String.format(Locale.ROOT, "%,d", Shape.aggregates()) + " aggregate ids, in turn),"
                        + " ~300-byte JSON payload and Outbox Relay's ten headers (ce_specversion, ce_id, ce_type,"
                        + " ce_source, ce_subject, ce_time, content-type, id, aggregate_type, event_version) on every"
                        + " contender's records, so all are the same size on the wire; the same producer settings (acks=all,"
                        + " idempotent, linger.ms=5, lz4) for every contender that produces in the harness; Outbox Relay's server"
                        + " produces with its own defaults (acks=all, idempotent, linger.ms=5, lz4, and a flush when a round"
                        + " waits for its batch). LZ4 is lz4-java's native codec in the harness (its classes on the class path)"
                        + " and, since 2026-12-06, in the server too (which loads the native library itself; before, it"
                        + " compressed in Java).",
                "gruelbox: transactionoutbox-core 4.2.268, the newest release Maven Central serves (its maven-metadata.xml"
                        + " lists it as latest and release).",
                "Steady writers: outbox-relay creates orders through the server's API (HTTP, JPA, order, line and outbox"
                        + " row, two sample consumers reading along); outbox-relay-rows writes one outbox_event row per transaction"
                        + " by plain JDBC, then NOTIFY outbox_relay (by default as the append does: one at a time, shared by the"
                        + " commits made meanwhile; the steady table's description says which); debezium and seeds-poller one"
                        + " INSERT per transaction; gruelbox one scheduled entry per transaction.",
                "What still differs: Outbox Relay runs inside a Liberty server that shares the cores with PostgreSQL, Kafka"
                        + " and the harness, while Debezium runs embedded in the harness process; gruelbox and the seeds' poller"
                        + " send each record with send().get(), as their documentation shows, which bounds them to one"
                        + " acknowledgement per record and thread.");
    }

    String svg() {
        int barHeight = 28;
        int gap = 12;
        int left = 140;
        int width = 720;
        List<Contender> shown = contenders.stream().filter(c -> !eventsPerSecond.getOrDefault(c.name(), List.of()).isEmpty()).toList();
        double max = shown.stream().mapToDouble(c -> medianOf(c.name())).max().orElse(1);
        List<SteadyLatency.Step> latencies = figures.charted();
        int latencyTop = 50 + shown.size() * (barHeight + gap) + 20;
        int height = latencyTop + (latencies.isEmpty() ? 0 : 60 + latencies.size() * (3 * 12 + gap));
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Backlog drain (events/s, median of %s mode, %s)</text>%n", mode, date));
        int y = 40;
        for (Contender contender : shown) {
            double median = medianOf(contender.name());
            int bar = (int) Math.max(1, (width - left - 110) * median / max);
            String colour = contender.name().startsWith("outbox-relay") ? "#2f6fad" : "#9aa5b1";
            svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">%s</text>%n", y + 19, contender.name()));
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n", left, y, bar, barHeight, colour));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%,.0f</text>%n", left + bar + 8, y + 19, median));
            y += barHeight + gap;
        }
        if (!latencies.isEmpty()) {
            latencySvg(svg, latencies, latencyTop, left, width);
        }
        return svg.append("</svg>\n").toString();
    }

    /** Steady latency: p50, p95 and p99 bars per contender, at the reference rate where it sustained that. */
    private void latencySvg(StringBuilder svg, List<SteadyLatency.Step> steps, int top, int left, int width) {
        String[] colours = {"#2f6fad", "#7fa7d1", "#c3d5ea"};
        double max = steps.stream().mapToDouble(SteadyLatency.Step::p99).filter(v -> !Double.isNaN(v)).max().orElse(1);
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">Steady latency, commit → consumed"
                + " (ms; p50, p95, p99; at %,d events/s unless marked)</text>%n", top, figures.referenceRate()));
        int y = top + 20;
        for (SteadyLatency.Step step : steps) {
            String label = step.contender() + (step.rate() == figures.referenceRate() ? "" : String.format(Locale.ROOT, " @%,d/s", step.rate()));
            svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%d\">%s</text>%n", y + 22, escapeXml(label)));
            double[] values = {step.p50(), step.p95(), step.p99()};
            for (int i = 0; i < values.length; i++) {
                double value = Double.isNaN(values[i]) ? 0 : values[i];
                int bar = (int) Math.max(1, (width - left - 110) * value / max);
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"10\" fill=\"%s\"/>%n",
                        left, y + i * 12, bar, colours[i]));
                svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">p%s %.1f</text>%n",
                        left + bar + 6, y + i * 12 + 9, i == 0 ? "50" : i == 1 ? "95" : "99", value));
            }
            y += 3 * 12 + 12;
        }
    }

    private static String escapeXml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;");
    }

    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}

package io.outboxrelay.faults;

import java.time.LocalDate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The suite's table (Markdown) and the same figures as JSON. */
final class Report {

    private static final List<String> COLUMNS = List.of("orders written", "events written", "published", "records on Kafka",
            "duplicated", "lost", "consumed", "inventory effect", "DLT", "DEAD");

    private final LocalDate date;
    private final String mode;
    private final String publisher;
    private final String machine;
    private final List<Result> results;

    Report(LocalDate date, String mode, String publisher, String machine, List<Result> results) {
        this.date = date;
        this.mode = mode;
        this.publisher = publisher;
        this.machine = machine;
        this.results = results;
    }

    boolean passed() {
        return results.stream().allMatch(Result::passed); // a skipped scenario counts as not kept
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Fault suite, ").append(mode).append(" mode, ").append(date)
                .append("cdc".equals(publisher) ? ", CDC mode (outbox.publisher=cdc)" : "").append("\n\n");
        md.append("Machine: ").append(machine).append(".\n\n");
        md.append("| scenario | ").append(String.join(" | ", COLUMNS)).append(" | verdict |\n");
        md.append("|---|").append("---:|".repeat(COLUMNS.size())).append("---|\n");
        for (Result result : results) {
            md.append("| ").append(result.scenario()).append(" | ");
            for (String column : COLUMNS) {
                Long value = result.counts().get(column);
                md.append(value == null ? "" : String.format("%,d", value)).append(" | ");
            }
            md.append(verdict(result)).append(" |\n");
        }
        md.append('\n');
        for (Result result : results) {
            md.append("**").append(result.scenario()).append("**");
            if (result.skipped() != null) {
                md.append(": skipped, ").append(result.skipped());
            }
            md.append('\n');
            Set<String> shown = new LinkedHashSet<>(COLUMNS);
            result.counts().forEach((name, value) -> {
                if (!shown.contains(name)) {
                    md.append("- ").append(name).append(": ").append(String.format("%,d", value)).append('\n');
                }
            });
            result.facts().forEach((name, value) -> md.append("- ").append(name).append(": ").append(value).append('\n'));
            result.violations().forEach(violation -> md.append("- **NOT KEPT**: ").append(violation).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    String json() {
        return "{\n  \"date\": " + quote(date.toString()) + ",\n  \"mode\": " + quote(mode) + ",\n  \"publisher\": " + quote(publisher) + ",\n  \"machine\": "
                + quote(machine) + ",\n  \"passed\": " + passed() + ",\n  \"scenarios\": [\n"
                + results.stream().map(Report::json).collect(Collectors.joining(",\n")) + "\n  ]\n}\n";
    }

    private static String json(Result result) {
        return "    {\"scenario\": " + quote(result.scenario())
                + ", \"passed\": " + result.passed()
                + ", \"skipped\": " + (result.skipped() == null ? "null" : quote(result.skipped()))
                + ",\n     \"counts\": " + object(result.counts(), value -> String.valueOf(value))
                + ",\n     \"facts\": " + object(result.facts(), Report::quote)
                + ",\n     \"violations\": [" + result.violations().stream().map(Report::quote).collect(Collectors.joining(", "))
                + "]}";
    }

    private static <T> String object(Map<String, T> values, java.util.function.Function<T, String> render) {
        return values.entrySet().stream().map(entry -> quote(entry.getKey()) + ": " + render.apply(entry.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String verdict(Result result) {
        if (result.skipped() != null) {
            return "**NOT KEPT** (skipped: it proved nothing)";
        }
        return result.passed() ? "kept" : "**NOT KEPT**";
    }

    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}

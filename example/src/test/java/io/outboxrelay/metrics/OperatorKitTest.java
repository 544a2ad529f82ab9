package io.outboxrelay.metrics;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator kit in {@code ops/}: Prometheus' own tool accepts the alert rules and their unit tests pass (each
 * alert fires on a series that should fire it, stays quiet otherwise), and the Grafana dashboard is importable
 * JSON whose every query uses only meters the product serves (those docs/operations.md lists).
 */
class OperatorKitTest {

    private static final Path OPS = Path.of("..", "ops");
    private static final Path PROMTOOL = Path.of(System.getProperty("it.promtool", "/usr/bin/promtool"));
    private static final Pattern METER = Pattern.compile("\\boutbox_[a-z_]+");

    @Test
    void theAlertRulesPassPromtoolsCheckAndTheirUnitTests() throws Exception {
        Path rules = OPS.resolve("prometheus");
        assertThat(promtool(rules, "check", "rules", "outbox-relay-rules.yml")).contains("SUCCESS: 8 rules found");
        assertThat(promtool(rules, "test", "rules", "outbox-relay-rules.test.yml")).contains("SUCCESS");
        assertThat(meters(Files.readString(rules.resolve("outbox-relay-rules.yml")))).isSubsetOf(documentedMeters());
    }

    @Test
    void theDashboardIsImportableAndQueriesOnlyTheProductsMeters() throws IOException {
        JsonObject dashboard;
        try (JsonReader reader = Json.createReader(Files.newBufferedReader(OPS.resolve("grafana").resolve("outbox-relay-dashboard.json")))) {
            dashboard = reader.readObject();
        }
        assertThat(dashboard.getString("uid")).isEqualTo("outbox-relay");
        assertThat(dashboard.getJsonArray("__inputs").getJsonObject(0).getString("pluginId"))
                .as("asks for the Prometheus data source on import").isEqualTo("prometheus");
        List<String> queries = new ArrayList<>();
        for (JsonValue value : dashboard.getJsonArray("panels")) {
            JsonObject panel = (JsonObject) value;
            if (!"row".equals(panel.getString("type"))) {
                assertThat(panel.getJsonArray("targets")).as(panel.getString("title")).isNotEmpty();
                panel.getJsonArray("targets").getValuesAs(JsonObject.class).forEach(target -> queries.add(target.getString("expr")));
            }
        }
        Set<String> used = meters(String.join("\n", queries));
        assertThat(used).isSubsetOf(documentedMeters());
        assertThat(used).as("publishing and consuming both shown").contains("outbox_oldest_pending_age_seconds",
                "outbox_consumer_lag_records", "outbox_consumer_oldest_unconsumed_age_seconds",
                "outbox_consumer_dead_letters_records", "outbox_consumer_handling_seconds");
    }

    /** Meter names in PromQL, histogram series ({@code _bucket}, {@code _count}, {@code _sum}) as their meter. */
    private static Set<String> meters(String text) {
        Set<String> names = new TreeSet<>();
        Matcher meter = METER.matcher(text);
        while (meter.find()) {
            names.add(meter.group().replaceFirst("_(bucket|count|sum)$", ""));
        }
        return names;
    }

    /** The meters docs/operations.md documents, the first column of its table. */
    private static Set<String> documentedMeters() throws IOException {
        Set<String> names = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "operations.md"))) {
            if (line.startsWith("| `outbox_")) {
                names.addAll(meters(line.substring(0, line.indexOf('|', 1))));
            }
        }
        assertThat(names).as("the meter table of docs/operations.md").hasSizeGreaterThan(10);
        return names;
    }

    private static String promtool(Path directory, String... arguments) throws IOException, InterruptedException {
        assertThat(Files.isExecutable(PROMTOOL)).as("promtool at " + PROMTOOL
                + ": install the Debian package prometheus (.ci/run does)").isTrue();
        List<String> command = new ArrayList<>(List.of(PROMTOOL.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}

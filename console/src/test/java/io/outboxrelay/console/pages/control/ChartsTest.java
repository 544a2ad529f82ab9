package io.outboxrelay.console.pages.control;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChartsTest {

    @Test
    void rowsByStatusBecomeOneBarPerStatusInItsBadgeColour() {
        Map<String, Long> rows = new LinkedHashMap<>();
        rows.put("DEAD", 2L);
        rows.put("SENT", 1200L);

        JsonObject chart = read(Charts.bars("Rows by status", rows));

        assertThat(chart.getString("type")).isEqualTo("bar");
        JsonObject data = chart.getJsonObject("data");
        assertThat(data.getJsonArray("labels").getValuesAs(jakarta.json.JsonString::getString)).containsExactly("DEAD", "SENT");
        JsonObject bars = data.getJsonArray("datasets").getJsonObject(0);
        assertThat(bars.getJsonArray("data").getJsonNumber(1).longValue()).isEqualTo(1200);
        assertThat(bars.getJsonArray("backgroundColor").getString(0)).isEqualTo("#3e1f47");
        assertThat(chart.getJsonObject("options").getJsonObject("plugins").getJsonObject("title").getString("text"))
                .isEqualTo("Rows by status");
    }

    @Test
    void samplesOverTimeBecomeALineWithTheirTimesAsLabels() {
        JsonObject chart = read(Charts.line("Oldest pending age (s)", List.of("12:00:00", "12:00:05"), List.of(0.0, 42.5)));

        assertThat(chart.getString("type")).isEqualTo("line");
        assertThat(chart.getJsonObject("data").getJsonArray("labels")).hasSize(2);
        assertThat(chart.getJsonObject("data").getJsonArray("datasets").getJsonObject(0).getJsonArray("data")
                .getJsonNumber(1).doubleValue()).isEqualTo(42.5);
    }

    @Test
    void aHostileGroupNameCannotEndTheScriptItIsWrittenIntoButReadsBackUnchanged() {
        String hostile = "</script><script>alert(1)</script><!-- & \u2028";

        String json = Charts.bars("Consumer lag (records)", Map.of(hostile + " · orders.events", 3L));

        assertThat(json).doesNotContain("<", ">", "&", "\u2028");
        assertThat(read(json).getJsonObject("data").getJsonArray("labels").getString(0))
                .isEqualTo(hostile + " · orders.events");
    }

    private static JsonObject read(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}

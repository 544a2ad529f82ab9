package io.outboxrelay.console.pages.control;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;

import java.util.List;
import java.util.Map;

/**
 * Chart.js configurations (the JSON PrimeFaces' {@code p:chart} renders) for the lag page. PrimeFaces
 * writes that JSON into an inline {@code <script>} as it is, and labels come from Kafka (a consumer
 * group may be named {@code </script><script>...}), so the JSON leaves here safe for that context.
 */
public final class Charts {

    private static final String BLUE = "#2f6fad";
    /** The badges' colours, so a state looks the same in a chart as in a table. */
    private static final Map<String, String> STATUS_COLOURS = Map.of("PENDING", "#d08a1c", "IN_FLIGHT", "#0b4f8a",
            "SENT", "#2e8b57", "DLT", "#c0392b", "DEAD", "#3e1f47");

    private Charts() {
    }

    /** One bar per label, e.g. rows per status (states in their badge colours). */
    public static String bars(String title, Map<String, ? extends Number> values) {
        JsonArrayBuilder labels = Json.createArrayBuilder();
        JsonArrayBuilder data = Json.createArrayBuilder();
        JsonArrayBuilder colours = Json.createArrayBuilder();
        for (Map.Entry<String, ? extends Number> value : values.entrySet()) {
            labels.add(value.getKey());
            data.add(value.getValue().doubleValue());
            colours.add(STATUS_COLOURS.getOrDefault(value.getKey(), BLUE));
        }
        return chart("bar", title, labels, Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("label", title).add("data", data).add("backgroundColor", colours)));
    }

    /** A line over time: {@code labels} are the sample times, {@code values} the samples. */
    public static String line(String title, List<String> labels, List<? extends Number> values) {
        JsonArrayBuilder data = Json.createArrayBuilder();
        values.forEach(value -> data.add(value.doubleValue()));
        return chart("line", title, Json.createArrayBuilder(labels), Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("label", title).add("data", data).add("borderColor", BLUE).add("backgroundColor", BLUE)
                .add("tension", 0.2).add("pointRadius", 0)));
    }

    private static String chart(String type, String title, JsonArrayBuilder labels, JsonArrayBuilder datasets) {
        JsonObjectBuilder options = Json.createObjectBuilder()
                .add("animation", false)
                .add("maintainAspectRatio", false)
                .add("plugins", Json.createObjectBuilder()
                        .add("legend", Json.createObjectBuilder().add("display", false))
                        .add("title", Json.createObjectBuilder().add("display", true).add("text", title)))
                .add("scales", Json.createObjectBuilder()
                        .add("y", Json.createObjectBuilder().add("beginAtZero", true)));
        return scriptSafe(Json.createObjectBuilder()
                .add("type", type)
                .add("data", Json.createObjectBuilder().add("labels", labels).add("datasets", datasets))
                .add("options", options)
                .build().toString());
    }

    /**
     * The same JSON with every character that could end the script element or open markup inside it
     * ({@code < > &}) and the two line terminators older JavaScript refuses in strings written as
     * JSON unicode escapes. Outside strings JSON has none of them, so the value a script reads is unchanged.
     */
    static String scriptSafe(String json) {
        StringBuilder safe = new StringBuilder(json.length() + 16);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<', '>', '&', '\u2028', '\u2029' -> safe.append(String.format("\\u%04x", (int) c));
                default -> safe.append(c);
            }
        }
        return safe.toString();
    }
}

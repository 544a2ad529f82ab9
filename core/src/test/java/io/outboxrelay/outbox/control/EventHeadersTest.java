package io.outboxrelay.outbox.control;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EventHeadersTest {

    @Test
    void headersTheRelayWritesItselfAreReservedWhateverTheirCase() {
        for (String name : new String[] {"ce_id", "CE_TYPE", "id", "aggregate_type", "event_version", "content-type",
                "dlt_attempts"}) {
            assertThat(EventHeaders.isReserved(name)).as(name).isTrue();
        }
        assertThat(EventHeaders.isReserved("correlation-id")).isFalse();
        assertThat(EventHeaders.isReserved("tenant")).isFalse();
    }

    @Test
    void theStoredHeadersAreJsonThatReadsBackAsTheyWereGiven() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("correlation-id", "checkout-42");
        headers.put("quote\"and\\backslash", "line\nbreak\ttab\rreturn\u0001bell\u001f");
        headers.put("tenant", "Zürich – 東京 \uD83D\uDE00");
        headers.put("empty", "");

        String json = EventHeaders.json(headers);

        JsonObject read = Json.createReader(new StringReader(json)).readObject();
        assertThat(read.keySet()).containsExactlyElementsOf(headers.keySet());
        headers.forEach((name, value) -> assertThat(read.getString(name)).as(name).isEqualTo(value));
        assertThat(json).doesNotContain("\n").doesNotContain("\u0001");
    }

    @Test
    void noHeadersAreAnEmptyObject() {
        assertThat(EventHeaders.json(Map.of())).isEqualTo("{}");
    }
}

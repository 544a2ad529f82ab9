package io.outboxrelay.faults;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile input against the real server: malformed and oversized bodies, wrong types, SQL
 * metacharacters and very long strings in every search filter, unknown parameters, path
 * traversal. Never a 5xx, never a stack trace or SQL text in an answer. Counts what it sent.
 */
class HostileInputIT {

    private static final List<String> HOSTILE = List.of(
            "' OR '1'='1", "'; DROP TABLE outbox_event; --", "\" OR 1=1 --", "%", "_", "\\", "../../etc/passwd",
            "<script>alert(1)</script>", "${jndi:ldap://127.0.0.1/x}", "\u0000", "😀", "x".repeat(5_000),
            "00000000-0000-0000-0000-000000000000", "2026-13-45T99:99:99Z", "-1", "999999999999999999999");

    private static final List<String> FILTERS = List.of(
            "eventId", "aggregateType", "aggregateId", "eventType", "status", "from", "to", "size", "cursor");

    @Test
    void everySearchFilterSurvivesHostileValues() {
        int requests = 0;
        for (String filter : FILTERS) {
            for (String value : HOSTILE) {
                Answer answer = Api.get("/outbox/api/events?" + filter + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8),
                        Api.VIEWER);
                assertCalm(answer, filter + "=" + abbreviate(value));
                assertThat(answer.status()).as(filter + "=" + abbreviate(value)).isIn(200, 400);
                requests++;
            }
        }
        assertThat(requests).isEqualTo(FILTERS.size() * HOSTILE.size());
    }

    @Test
    void unknownParametersAreIgnoredOrRefusedNeverFatal() {
        assertCalm(Api.get("/outbox/api/events?colour=red&size=5&__proto__=x", Api.VIEWER), "unknown parameters");
        assertCalm(Api.get("/outbox/api/audit?size=abc", Api.VIEWER), "audit size=abc");
        assertCalm(Api.get("/outbox/api/audit?cursor=' OR 1=1".replace(" ", "%20"), Api.VIEWER), "audit cursor");
    }

    @Test
    void malformedAndWronglyTypedBodiesAre400s() {
        List<String> bodies = List.of("{", "null", "[]", "\"text\"", "{\"customerId\": 42, \"lines\": {}}",
                "{\"customerId\": \"c\", \"lines\": [{\"sku\": [], \"quantity\": {}, \"unitPrice\": \"free\"}]}",
                "{\"customerId\": \"" + "c".repeat(10_000) + "\", \"lines\": []}");
        for (String body : bodies) {
            Answer order = Api.post("/api/orders", body);
            assertCalm(order, "order " + abbreviate(body));
            assertThat(order.status()).as(abbreviate(body)).isEqualTo(400);
            Answer replay = Api.post("/outbox/api/events/replay", body, Api.OPERATOR);
            assertCalm(replay, "bulk replay " + abbreviate(body));
            assertThat(replay.status()).as("bulk replay " + abbreviate(body)).isEqualTo(400);
        }
    }

    @Test
    void aBulkReplayWithAMisspeltFilterFieldIsRefusedNotRunUnfiltered() {
        Answer replay = Api.post("/outbox/api/events/replay", "{\"agregateType\": \"Order\", \"dryRun\": true}", Api.OPERATOR);

        assertThat(replay.status()).isEqualTo(400);
        assertCalm(replay, "misspelt filter");
    }

    @Test
    void anOversizedBodyIsRefusedWith413BeforeItIsRead() {
        String huge = "{\"customerId\": \"" + "x".repeat(2 * 1024 * 1024) + "\", \"lines\": []}";

        Answer answer = Api.post("/api/orders", huge);

        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertCalm(answer, "2 MiB body");
    }

    @Test
    void anOversizedChunkedBodyWithoutALengthIsRefusedWith413() {
        byte[] huge = ("{\"customerId\": \"" + "x".repeat(2 * 1024 * 1024) + "\", \"lines\": []}").getBytes(StandardCharsets.UTF_8);

        Answer answer = send(HttpRequest.newBuilder(Api.uri("/api/orders")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge))), Map.of());

        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertCalm(answer, "2 MiB chunked body");
    }

    @Test
    void aChunkedBodyWithinTheLimitIsAccepted() {
        byte[] order = """
                {"customerId": "chunked", "lines": [{"sku": "chunk-1", "quantity": 1, "unitPrice": "2.50"}]}"""
                .getBytes(StandardCharsets.UTF_8);

        Answer answer = send(HttpRequest.newBuilder(Api.uri("/api/orders")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(order))), Map.of());

        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
        assertThat(answer.json().getString("status")).isEqualTo("CREATED");
    }

    @Test
    void malformedIdsAndPathTraversalNeverReachAFileOrAStackTrace() {
        List<String> paths = new ArrayList<>(List.of(
                "/outbox/api/events/not-a-uuid", "/outbox/api/events/%27%20OR%201=1", "/api/orders/..%2F..%2Fetc%2Fpasswd",
                "/outbox/api/events/" + "a".repeat(3000), "/WEB-INF/web.xml", "/outbox/console/../WEB-INF/web.xml",
                "/%2e%2e/WEB-INF/web.xml", "/outbox/console/%2e%2e/WEB-INF/web.xml", "/outbox/console/templates/layout.xhtml",
                "/META-INF/microprofile-config.properties", "/api/../WEB-INF/web.xml"));
        for (String path : paths) {
            Answer answer = send(HttpRequest.newBuilder(Api.uri(path)).GET(), Api.OPERATOR);
            assertCalm(answer, path);
            assertThat(answer.body()).as(path).doesNotContain("<web-app", "mp.messaging", "security-constraint");
        }
    }

    private static Answer send(HttpRequest.Builder request, Map<String, String> headers) {
        return Api.send(request, headers);
    }

    /** Not a server error, and nothing of the server's insides in the body. */
    static void assertCalm(Answer answer, String what) {
        assertThat(answer.status()).as(what + " → " + abbreviate(answer.body())).isLessThan(500);
        assertThat(answer.body()).as(what).doesNotContain("Exception", "\tat ", "at io.outboxrelay", "org.postgresql",
                "SQLState", "SELECT ", "INSERT INTO", "syntax error");
    }

    static String abbreviate(String text) {
        return text == null ? "null" : text.length() > 80 ? text.substring(0, 80) + "…" : text;
    }
}

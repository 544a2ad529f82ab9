package io.outboxrelay.faults;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
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
 * Hostile input against the real server: malformed and oversized bodies, values of every kind in every
 * field of every body, SQL metacharacters, very long strings and far-off times in every search filter,
 * unknown parameters, path traversal. Never a 5xx, never a stack trace or SQL text in an answer; numbers
 * taken exactly or refused, text stored exactly or refused. Counts what it sent.
 */
class HostileInputIT {

    private static final List<String> HOSTILE = List.of(
            "' OR '1'='1", "'; DROP TABLE outbox_event; --", "\" OR 1=1 --", "%", "_", "\\", "../../etc/passwd",
            "<script>alert(1)</script>", "${jndi:ldap://127.0.0.1/x}", "\u0000", "😀", "x".repeat(5_000),
            "00000000-0000-0000-0000-000000000000", "2026-13-45T99:99:99Z", "-1", "999999999999999999999",
            "+275760-09-13T00:00:00Z", "-4713-11-24T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59-14:00");

    /** JSON values of every kind, and texts PostgreSQL cannot store, for every field of every body. */
    private static final List<String> HOSTILE_JSON = List.of(
            "\"\\u0000\"", "\"a\\ud800b\"", "\"\\udc00\"", "1.9", "-1", "0", "1e400", "-1e400", "99999999999999999999",
            "1e999999999", "\"1\"", "true", "[]", "{}", "[{}]", "null", "\"\"", "\"" + "x".repeat(5_000) + "\"",
            "\"' OR 1=1 --\"", "\"😀\"", "\"<script>alert(1)</script>\"", "\"+275760-09-13T00:00:00Z\"",
            "\"-4713-11-24T00:00:00Z\"", "\"2026-02-30T00:00:00Z\"", "\"00000000-0000-0000-0000-000000000000\"");

    private static final String ORDER = """
            {"customerId": @customerId@, "lines": @lines@}""";
    private static final String LINE = """
            [{"sku": @sku@, "quantity": @quantity@, "unitPrice": @unitPrice@}]""";
    private static final Map<String, String> VALID_ORDER = Map.of("customerId", "\"hostile-fields\"", "sku", "\"mug\"",
            "quantity", "1", "unitPrice", "5");
    private static final String BULK_REPLAY = """
            {"eventId": @eventId@, "aggregateType": @aggregateType@, "aggregateId": @aggregateId@, "eventType": @eventType@,
             "status": @status@, "from": @from@, "to": @to@, "dryRun": @dryRun@}""";
    private static final Map<String, String> VALID_BULK_REPLAY = Map.ofEntries(Map.entry("eventId", "null"),
            Map.entry("aggregateType", "\"NoSuchAggregate\""), Map.entry("aggregateId", "null"), Map.entry("eventType", "null"),
            Map.entry("status", "[\"DLT\"]"), Map.entry("from", "\"2026-01-01T00:00:00Z\""), Map.entry("to", "null"),
            Map.entry("dryRun", "true"));

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
    void everyFieldOfEveryBodyTakesHostileValuesWithA4xxOrExactly() {
        int requests = 0;
        for (String field : List.of("customerId", "lines", "sku", "quantity", "unitPrice")) {
            for (String value : HOSTILE_JSON) {
                Answer order = Api.post("/api/orders", order(field, value));
                assertCalm(order, "order " + field + "=" + abbreviate(value));
                assertThat(order.status()).as("order " + field + "=" + abbreviate(value) + ": " + order.body()).isIn(201, 400);
                requests++;
            }
        }
        for (String field : VALID_BULK_REPLAY.keySet()) {
            for (String value : HOSTILE_JSON) {
                Map<String, String> fields = new java.util.HashMap<>(VALID_BULK_REPLAY);
                fields.put(field, value);
                Answer replay = Api.post("/outbox/api/events/replay", fill(BULK_REPLAY, fields), Api.OPERATOR);
                assertCalm(replay, "bulk replay " + field + "=" + abbreviate(value));
                assertThat(replay.status()).as("bulk replay " + field + "=" + abbreviate(value) + ": " + replay.body()).isIn(200, 400);
                requests++;
            }
        }
        assertThat(requests).isEqualTo((5 + VALID_BULK_REPLAY.size()) * HOSTILE_JSON.size());
    }

    @Test
    void aNumberIsTakenExactlyOrRefusedNeverRounded() {
        String customer = "exact-" + java.util.UUID.randomUUID();
        Answer fraction = Api.post("/api/orders", order("customerId", "\"" + customer + "\"").replace("\"quantity\": 1", "\"quantity\": 1.9"));
        assertThat(fraction.status()).as(fraction.body()).isEqualTo(400);
        assertThat(fraction.json().getString("detail")).contains("lines[0].quantity", "whole number");

        Answer exact = Api.post("/api/orders", order("customerId", "\"" + customer + "\"").replace("\"quantity\": 1", "\"quantity\": 3.0"));
        assertThat(exact.status()).as(exact.body()).isEqualTo(201);
        assertThat(Database.rows("SELECT l.quantity FROM order_line l JOIN orders o ON o.id = l.order_id WHERE o.customer_id = ?",
                customer)).extracting(row -> ((Number) row.get("quantity")).intValue()).containsExactly(3);
    }

    @Test
    void textPostgresCannotStoreIsA400AndTextItCanIsStoredExactly() {
        Answer nul = Api.post("/api/orders", order("customerId", "\"before\\u0000after\""));
        assertThat(nul.status()).as(nul.body()).isEqualTo(400);
        assertThat(nul.json().getString("detail")).contains("customerId", "NUL");

        String customer = "😀 ünïcødé 中文 " + java.util.UUID.randomUUID();
        Answer stored = Api.post("/api/orders", order("customerId", "\"" + customer + "\""));
        assertThat(stored.status()).as(stored.body()).isEqualTo(201);
        assertThat(Database.count("SELECT count(*) FROM orders WHERE customer_id = ?", customer)).isEqualTo(1);
    }

    @Test
    void aBodyWithAnythingAfterItsObjectOrAnArrayForAnObjectIsRefused() {
        String customer = "trailing-" + java.util.UUID.randomUUID();
        String valid = order("customerId", "\"" + customer + "\"");
        for (String body : List.of(valid + " {\"customerId\": \"second\"}", valid + "]", valid + " trailing", "[" + valid + "]",
                valid.replace("\"lines\": [", "\"lines\": [[").replace("}]}", "}]]}"))) {
            Answer order = Api.post("/api/orders", body);
            assertThat(order.status()).as(abbreviate(body) + ": " + order.body()).isEqualTo(400);
            assertThat(order.header("Content-Type")).startsWith("application/problem+json");
        }
        for (String body : List.of("{\"dryRun\": true} {\"dryRun\": false}", "[{\"dryRun\": true}]", "{\"status\": \"DLT\", \"dryRun\": true}")) {
            Answer replay = Api.post("/outbox/api/events/replay", body, Api.OPERATOR);
            assertThat(replay.status()).as(abbreviate(body) + ": " + replay.body()).isEqualTo(400);
        }
        assertThat(Database.count("SELECT count(*) FROM orders WHERE customer_id = ?", customer)).as("nothing was stored").isZero();
    }

    @Test
    void timesOutsideTheYears1To9999AreA400InEveryTimeFilter() {
        for (String time : List.of("+275760-09-13T00:00:00Z", "-4713-11-24T00:00:00Z", "0000-12-31T23:59:59Z", "+10000-01-01T00:00:00Z")) {
            for (String filter : List.of("from", "to")) {
                Answer search = Api.get("/outbox/api/events?" + filter + "=" + URLEncoder.encode(time, StandardCharsets.UTF_8), Api.VIEWER);
                assertThat(search.status()).as(filter + "=" + time + ": " + search.body()).isEqualTo(400);
                assertThat(search.json().getString("detail")).contains(filter, "9999");
                Answer replay = Api.post("/outbox/api/events/replay", "{\"" + filter + "\": \"" + time + "\", \"dryRun\": true}", Api.OPERATOR);
                assertThat(replay.status()).as("bulk replay " + filter + "=" + time + ": " + replay.body()).isEqualTo(400);
            }
        }
        Answer edge = Api.get("/outbox/api/events?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z", Api.VIEWER);
        assertThat(edge.status()).as(edge.body()).isEqualTo(200);
    }

    @Test
    void anEncodedNulInAPathIsRefusedWithA400() {
        // Liberty's web container refuses such a path before any application code runs, with its own short HTML
        // page: a 4xx without internals, though not a problem document (see docs/limitations.md)
        for (String path : List.of("/api/orders/%00", "/outbox/api/events/%00", "/outbox/api/events/abc%00def/replay")) {
            Answer answer = send(HttpRequest.newBuilder(Api.uri(path)).GET(), Api.OPERATOR);
            assertThat(answer.status()).as(path).isEqualTo(400);
            assertCalm(answer, path);
        }
    }

    private static String order(String field, String value) {
        Map<String, String> fields = new java.util.HashMap<>(VALID_ORDER);
        String lines = LINE;
        if (field.equals("lines")) {
            lines = value;
        } else {
            fields.put(field, value);
        }
        return fill(ORDER.replace("@lines@", lines), fields).replace("@lines@", lines);
    }

    private static String fill(String template, Map<String, String> fields) {
        String body = template;
        for (Map.Entry<String, String> field : fields.entrySet()) {
            body = body.replace("@" + field.getKey() + "@", field.getValue());
        }
        return body;
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

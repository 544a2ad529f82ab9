package io.outboxrelay.example.orders.boundary;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.outboxrelay.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/** The order API against the real server and PostgreSQL: what it answers, and what it committed. */
class OrdersApiIT {

    private static final String ORDER = """
            {"customerId": "c-7", "lines": [
               {"sku": "BOOK-1", "quantity": 2, "unitPrice": 12.50},
               {"sku": "PEN-9", "quantity": 1, "unitPrice": 1.99}]}""";

    @Test
    void creatingAnOrderCommitsTheOrderAndOneOutboxRowForIt() {
        Answer created = Api.post("/api/orders", ORDER);

        assertThat(created.status()).isEqualTo(201);
        JsonObject body = created.json();
        UUID orderId = UUID.fromString(body.getString("orderId"));
        UUID eventId = UUID.fromString(body.getString("eventId"));
        assertThat(created.header("Location")).endsWith("/api/orders/" + orderId);
        assertThat(eventId.version()).isEqualTo(7);

        assertThat(Database.rows("SELECT status, total, customer_id FROM orders WHERE id = ?", orderId))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.get("status")).isEqualTo("CREATED");
                    assertThat(row.get("total").toString()).isEqualTo("26.99");
                });
        assertThat(Database.count("SELECT count(*) FROM order_line WHERE order_id = ?", orderId)).isEqualTo(2);

        List<Map<String, Object>> events = Database.rows(
                "SELECT event_id, aggregate_type, event_type, event_version, topic, status, attempts, "
                        + "payload->>'orderId' AS payload_order, payload->'lines'->0->>'sku' AS first_sku "
                        + "FROM outbox_event WHERE aggregate_id = ?", orderId.toString());
        assertThat(events).singleElement().satisfies(event -> {
            assertThat(event.get("event_id")).isEqualTo(eventId);
            assertThat(event.get("aggregate_type")).isEqualTo("Order");
            assertThat(event.get("event_type")).isEqualTo("OrderCreated");
            assertThat(event.get("event_version")).isEqualTo(1);
            assertThat(event.get("topic")).isEqualTo("order.events");
            // committed as PENDING; the relay, woken by the commit, may already have published it
            assertThat(event.get("status")).isIn("PENDING", "IN_FLIGHT", "SENT");
            assertThat(event.get("attempts")).isEqualTo(0);
            assertThat(event.get("payload_order")).isEqualTo(orderId.toString());
            assertThat(event.get("first_sku")).isEqualTo("BOOK-1");
        });
    }

    @Test
    void everyEventGetsItsOwnEventId() {
        UUID orderId = createOrder();
        Api.postEmpty("/api/orders/" + orderId + "/payment");
        Api.postEmpty("/api/orders/" + orderId + "/cancellation");

        List<Map<String, Object>> events = Database.rows(
                "SELECT event_id, event_type FROM outbox_event WHERE aggregate_id = ? ORDER BY id", orderId.toString());

        assertThat(events).extracting(row -> row.get("event_type"))
                .containsExactly("OrderCreated", "OrderPaid", "OrderCancelled");
        assertThat(events).extracting(row -> row.get("event_id")).doesNotHaveDuplicates();
    }

    @Test
    void theOrderCanBeReadPaidAndCancelled() {
        UUID orderId = createOrder();

        Answer paid = Api.postEmpty("/api/orders/" + orderId + "/payment");
        assertThat(paid.status()).isEqualTo(200);
        assertThat(paid.json().getString("status")).isEqualTo("PAID");

        Answer read = Api.get("/api/orders/" + orderId);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().getString("status")).isEqualTo("PAID");
        assertThat(read.json().getJsonArray("lines")).hasSize(2);

        Answer cancelled = Api.postEmpty("/api/orders/" + orderId + "/cancellation");
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().getString("status")).isEqualTo("CANCELLED");
    }

    @Test
    void theRequestsCorrelationIdAndTraceContextTravelWithTheEvent() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        Answer created = Api.post("/api/orders", ORDER,
                Map.of("X-Correlation-Id", "checkout-4711", "traceparent", traceparent));

        assertThat(created.header("X-Correlation-Id")).isEqualTo("checkout-4711");
        Map<String, Object> headers = Database.rows(
                "SELECT headers->>'correlation-id' AS correlation, headers->>'traceparent' AS trace "
                        + "FROM outbox_event WHERE event_id = ?",
                UUID.fromString(created.json().getString("eventId"))).get(0);
        assertThat(headers.get("correlation")).isEqualTo("checkout-4711");
        // the server traces (MicroProfile Telemetry): the event continues the caller's trace from the request's span
        assertThat((String) headers.get("trace")).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-").endsWith("-01")
                .isNotEqualTo(traceparent);
    }

    @Test
    void eachRequestWithoutACorrelationIdGetsAFreshOneOfItsOwnEchoedAndStoredWithItsEvent() {
        Answer named = Api.post("/api/orders", ORDER, Map.of("X-Correlation-Id", "checkout-4712"));
        Answer first = Api.post("/api/orders", ORDER);
        Answer second = Api.post("/api/orders", ORDER);

        assertThat(named.header("X-Correlation-Id")).isEqualTo("checkout-4712");
        for (Answer unnamed : List.of(first, second)) {
            String echoed = unnamed.header("X-Correlation-Id");
            assertThat(UUID.fromString(echoed).version()).as(echoed).isEqualTo(4);
            assertThat(Database.rows("SELECT headers->>'correlation-id' AS correlation FROM outbox_event WHERE event_id = ?",
                    UUID.fromString(unnamed.json().getString("eventId"))).get(0).get("correlation")).isEqualTo(echoed);
        }
        assertThat(first.header("X-Correlation-Id")).isNotEqualTo(second.header("X-Correlation-Id"))
                .isNotEqualTo("checkout-4712");
    }

    @Test
    void aRequestWithoutTraceContextStartsANewTraceThatTravelsWithTheEvent() {
        Answer created = Api.post("/api/orders", ORDER);

        String trace = (String) Database.rows("SELECT headers->>'traceparent' AS trace FROM outbox_event WHERE event_id = ?",
                UUID.fromString(created.json().getString("eventId"))).get(0).get("trace");
        assertThat(trace).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]"); // sampled or not, as the server's sampler decides
    }

    @Test
    void invalidOrdersAreRefusedWith400ProblemsThatNameEveryBrokenRule() {
        Answer answer = Api.post("/api/orders", """
                {"customerId": "", "lines": [{"sku": "bad sku!", "quantity": 0, "unitPrice": -1}]}""");

        assertProblem(answer, 400);
        assertThat(answer.json().getJsonArray("errors").toString())
                .contains("customerId", "lines[0].sku", "lines[0].quantity", "lines[0].unitPrice");
        assertThat(Database.count("SELECT count(*) FROM orders WHERE customer_id = ''")).isZero();
    }

    @Test
    void unreadableBodiesAreRefusedWith400Problems() {
        for (String body : List.of("{not json", "[]", "{\"customerId\": \"c\", \"lines\": \"many\"}",
                "{\"customerId\": \"c\", \"lines\": [{\"sku\": \"A\", \"quantity\": \"two\", \"unitPrice\": 1}]}", "")) {
            Answer answer = Api.post("/api/orders", body);
            assertThat(answer.status()).as(body).isEqualTo(400);
            assertProblem(answer, 400);
        }
    }

    @Test
    void unknownOrdersAnswer404AndMalformedIdsAnswer400() {
        assertProblem(Api.get("/api/orders/" + UUID.randomUUID()), 404);
        assertProblem(Api.postEmpty("/api/orders/" + UUID.randomUUID() + "/payment"), 404);
        assertProblem(Api.get("/api/orders/not-a-uuid"), 400);
        assertProblem(Api.postEmpty("/api/orders/1-1-1-1-1/cancellation"), 400);
    }

    @Test
    void illegalTransitionsAnswer409AndPublishNothing() {
        UUID orderId = createOrder();
        Api.postEmpty("/api/orders/" + orderId + "/cancellation");

        Answer payCancelled = Api.postEmpty("/api/orders/" + orderId + "/payment");
        Answer cancelTwice = Api.postEmpty("/api/orders/" + orderId + "/cancellation");

        assertProblem(payCancelled, 409);
        assertThat(payCancelled.json().getString("detail")).contains("CANCELLED");
        assertProblem(cancelTwice, 409);
        assertThat(Database.count("SELECT count(*) FROM outbox_event WHERE aggregate_id = ?", orderId.toString()))
                .as("only OrderCreated and one OrderCancelled").isEqualTo(2);
        assertThat(Database.rows("SELECT status FROM orders WHERE id = ?", orderId).get(0).get("status"))
                .isEqualTo("CANCELLED");
    }

    @Test
    void unknownPathsAndMethodsAnswerProblemsWithoutJavaInternals() {
        assertProblem(Api.get("/api/no-such-thing"), 404);
        assertProblem(Api.get("/no-such-page"), 404);
        assertProblem(Api.send(java.net.http.HttpRequest.newBuilder(Api.uri("/api/orders")).DELETE(), Map.of()), 405);
    }

    static UUID createOrder() {
        Answer created = Api.post("/api/orders", ORDER);
        assertThat(created.status()).isEqualTo(201);
        return UUID.fromString(created.json().getString("orderId"));
    }
}

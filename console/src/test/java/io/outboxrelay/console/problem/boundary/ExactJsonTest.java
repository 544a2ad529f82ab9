package io.outboxrelay.console.problem.boundary;

import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExactJsonTest {

    record Line(String sku, Integer quantity, BigDecimal unitPrice) {
    }

    record Order(String customerId, List<Line> lines, Boolean dryRun) {
    }

    @Test
    void aBodyOfTheDeclaredShapePasses() {
        check("{\"customerId\": \"c-😀\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 2, \"unitPrice\": 5.5}], \"dryRun\": true}");
        check("{\"customerId\": \"c\", \"lines\": [{\"sku\": \"mug\", \"quantity\": 1e2, \"unitPrice\": \"2.50\"}]}");
        check("{\"customerId\": null, \"lines\": null}"); // nulls are Bean Validation's to refuse
        check("{\"customerId\": \"c\", \"lines\": [{\"quantity\": 3.0}]}"); // 3.0 is exactly 3
    }

    @Test
    void aFractionForAWholeNumberIsRefusedNeverRounded() {
        assertRefused("{\"lines\": [{\"quantity\": 1.9}]}", "'lines[0].quantity' must be a whole number");
        assertRefused("{\"lines\": [{\"quantity\": 1e-1}]}", "'lines[0].quantity' must be a whole number");
        assertRefused("{\"lines\": [{\"quantity\": \"1\"}]}", "'lines[0].quantity' must be a whole number");
    }

    @Test
    void aWholeNumberOutOfItsTypesRangeIsRefusedWithoutExpandingIt() {
        assertRefused("{\"lines\": [{\"quantity\": 2147483648}]}", "'lines[0].quantity' is out of range");
        assertRefused("{\"lines\": [{\"quantity\": 1e999999999}]}", "'lines[0].quantity' is out of range");
        check("{\"lines\": [{\"quantity\": -2147483648}]}");
    }

    @Test
    void wrongKindsOfValueAreRefusedByName() {
        assertRefused("[{\"customerId\": \"c\"}]", "the body must be an object");
        assertRefused("{\"lines\": {\"sku\": \"mug\"}}", "'lines' must be an array");
        assertRefused("{\"lines\": [[\"mug\", 1, 5]]}", "'lines[0]' must be an object");
        assertRefused("{\"customerId\": 42}", "'customerId' must be text");
        assertRefused("{\"dryRun\": \"yes\"}", "'dryRun' must be true or false");
        assertRefused("{\"lines\": [{\"unitPrice\": true}]}", "'lines[0].unitPrice' must be a number");
    }

    @Test
    void textPostgresCannotStoreIsRefused() {
        assertRefused("{\"customerId\": \"a\\u0000b\"}", "'customerId' must not contain the NUL character");
        assertRefused("{\"customerId\": \"a\\ud800b\"}", "'customerId' must not contain half a surrogate pair");
        assertRefused("{\"lines\": [{\"sku\": \"\\udc00\"}]}", "'lines[0].sku' must not contain half a surrogate pair");
    }

    @Test
    void anythingAfterTheValueOrMalformedJsonIsRefused() {
        assertRefused("{\"customerId\": \"c\"} {\"customerId\": \"d\"}", "after");
        assertRefused("{\"customerId\": \"c\"}]", "");
        assertRefused("{\"customerId\": \"c\"} trailing", "");
        for (String malformed : List.of("{", "[", "{\"customerId\": ", "{\"customerId\" \"c\"}", "nul", "\"open", "{}}")) {
            assertRefused(malformed, "");
        }
        assertThat(ExactJson.single("  {\"a\": 1}  \n".getBytes(StandardCharsets.UTF_8)).getValueType())
                .isEqualTo(JsonValue.ValueType.OBJECT);
    }

    private static void check(String json) {
        JsonShape.check(ExactJson.single(json.getBytes(StandardCharsets.UTF_8)), Order.class);
    }

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(() -> check(json)).isInstanceOf(InvalidInputException.class).hasMessageContaining(message);
    }
}

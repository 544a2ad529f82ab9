package io.outboxrelay.example.orders.boundary;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample API's own OpenAPI document names exactly the operations OrdersResource serves, so it cannot drift. */
class OrdersApiDocumentTest {

    private static final java.nio.file.Path DOCUMENT = java.nio.file.Path.of("src/main/webapp/api-docs/orders-openapi.json");

    @Test
    void theDocumentDescribesEveryOperationOfTheResourceAndNoOther() throws IOException {
        assertThat(documented()).isEqualTo(served());
    }

    private static Set<String> served() {
        String base = "/api/" + OrdersResource.class.getAnnotation(Path.class).value();
        Set<String> operations = new TreeSet<>();
        for (Method method : OrdersResource.class.getDeclaredMethods()) {
            String verb = method.isAnnotationPresent(GET.class) ? "get" : method.isAnnotationPresent(POST.class) ? "post" : null;
            if (verb != null) {
                Path path = method.getAnnotation(Path.class);
                operations.add(verb + " " + base + (path == null ? "" : "/" + path.value()));
            }
        }
        return operations;
    }

    private static Set<String> documented() throws IOException {
        try (Reader reader = Files.newBufferedReader(DOCUMENT)) {
            JsonObject paths = Json.createReader(reader).readObject().getJsonObject("paths");
            Set<String> operations = new TreeSet<>();
            paths.forEach((path, item) -> item.asJsonObject().keySet().stream()
                    .filter(key -> Arrays.asList("get", "post", "put", "patch", "delete").contains(key))
                    .forEach(verb -> operations.add(verb + " " + path)));
            return operations;
        }
    }
}

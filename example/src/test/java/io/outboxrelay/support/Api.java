package io.outboxrelay.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import org.awaitility.Awaitility;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the running server's API, as a user of the API would call it. */
public final class Api {

    public static final String BASE_URL = System.getProperty("it.base.url", "http://127.0.0.1:9080");

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    static {
        awaitReady(Duration.ofMinutes(3));
    }

    private Api() {
    }

    /** Basic-auth headers of the local test users (operator may replay, viewer only reads). */
    public static final String OPERATOR_PASSWORD = System.getProperty("it.operator.password", "it-operator-pw");
    public static final String VIEWER_PASSWORD = System.getProperty("it.viewer.password", "it-viewer-pw");
    public static final Map<String, String> OPERATOR = basic("operator", OPERATOR_PASSWORD);
    public static final Map<String, String> VIEWER = basic("viewer", VIEWER_PASSWORD);

    private static Map<String, String> basic(String user, String password) {
        return Map.of("Authorization", "Basic " + java.util.Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    public static Answer get(String path, Map<String, String> headers) {
        return send(HttpRequest.newBuilder(uri(path)).GET(), headers);
    }

    /**
     * Waits until the server says it is ready (database reachable, schema migrated) and that it reaches Kafka,
     * which readiness leaves out on purpose but every test that publishes needs.
     */
    public static void awaitReady(Duration deadline) {
        Awaitility.await("the server at " + BASE_URL + " to become ready and reach Kafka")
                .atMost(deadline)
                .pollInterval(Duration.ofMillis(500))
                .pollInSameThread() // called from this class's static initialiser
                .ignoreExceptions()
                .until(() -> status("/health/ready") == 200 && status("/outbox/health/kafka") == 200);
    }

    private static int status(String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** A response with its body as text, and as JSON when it is JSON. */
    public record Answer(int status, String contentType, String body, Map<String, java.util.List<String>> headers) {

        public JsonObject json() {
            try (JsonReader reader = Json.createReader(new StringReader(body))) {
                return reader.readObject();
            }
        }

        public jakarta.json.JsonArray jsonArray() {
            try (JsonReader reader = Json.createReader(new StringReader(body))) {
                return reader.readArray();
            }
        }

        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0))
                    .findFirst().orElse(null);
        }
    }

    public static Answer get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET(), Map.of());
    }

    public static Answer post(String path, String jsonBody) {
        return post(path, jsonBody, Map.of());
    }

    public static Answer post(String path, String jsonBody, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody));
        return send(request, headers);
    }

    public static Answer postEmpty(String path) {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()), Map.of());
    }

    public static Answer send(HttpRequest.Builder request, Map<String, String> headers) {
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body(), response.headers().map());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static URI uri(String path) {
        return URI.create(BASE_URL + path);
    }
}

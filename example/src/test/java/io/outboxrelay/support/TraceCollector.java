package io.outboxrelay.support;

import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A Zipkin collector for the integration tests: the server under test exports its spans with Liberty's own
 * Zipkin exporter (JSON v2 over HTTP) to {@code 127.0.0.1:<it.zipkin.port>/api/v2/spans}, and the tests read
 * them here. Listens for the whole test run, so no span sent before a test looks is lost.
 */
public class TraceCollector implements LauncherSessionListener {

    /** One span as Zipkin reports it; {@code parentId} is null for a root span. */
    public record Span(String traceId, String id, String parentId, String kind, String name, Map<String, String> tags) {
    }

    private static final List<Span> SPANS = new CopyOnWriteArrayList<>();
    private static HttpServer server;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String port = System.getProperty("it.zipkin.port");
        if (port == null) {
            return; // unit tests: no server exports here
        }
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(port)), 0);
        } catch (IOException portTaken) {
            throw new UncheckedIOException("the trace collector cannot listen on port " + port, portTaken);
        }
        server.createContext("/api/v2/spans", exchange -> {
            try (exchange) {
                if (!"POST".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
                try (InputStream body = "gzip".equalsIgnoreCase(encoding)
                        ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody();
                     JsonReader reader = Json.createReader(body)) {
                    reader.readArray().forEach(span -> SPANS.add(span(span.asJsonObject())));
                }
                exchange.sendResponseHeaders(202, -1);
            }
        });
        server.start();
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (server != null) {
            server.stop(0);
        }
    }

    /** The spans of one trace received so far. */
    public static List<Span> trace(String traceId) {
        return SPANS.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    private static Span span(JsonObject json) {
        JsonObject tags = json.getJsonObject("tags");
        Map<String, String> tagMap = tags == null ? Map.of() : tags.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, entry -> text(entry.getValue())));
        return new Span(json.getString("traceId"), json.getString("id"), json.getString("parentId", null),
                json.getString("kind", null), json.getString("name", ""), tagMap);
    }

    private static String text(JsonValue value) {
        return value instanceof jakarta.json.JsonString string ? string.getString() : value.toString();
    }
}

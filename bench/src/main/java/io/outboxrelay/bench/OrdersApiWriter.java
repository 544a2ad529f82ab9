package io.outboxrelay.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Creates sample orders through the server's API ({@code POST /api/orders}, no credentials: the
 * sample business API is open): one order, its line and its {@code OrderCreated} outbox row per
 * transaction. The customer id carries a run marker and the sequence, which the consumer reads
 * back from the event.
 */
final class OrdersApiWriter implements Steady {

    /** The sample's topic for {@code Order} events when {@code outbox.topic.Order} is not set. */
    static final String ORDER_TOPIC = "order.events";

    private final HttpClient http = Env.http();
    private final URI orders;
    private final String marker = "bench-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    private final AtomicLong created = new AtomicLong();
    private final Pattern sequence = Pattern.compile("\"customerId\"\\s*:\\s*\"" + Pattern.quote(marker) + "(\\d+)\"");

    OrdersApiWriter(String serverUrl) {
        this.orders = URI.create(serverUrl + "/api/orders");
    }

    @Override
    public String topic() {
        return ORDER_TOPIC;
    }

    @Override
    public String writes() {
        return "POST /api/orders per event (order, line and outbox row in one transaction; its commit wakes the relay);"
                + " latency from the 201 answer; the server's two sample consumers read them too, on the same cores";
    }

    @Override
    public void write(long sequence) throws Exception {
        createOrder(marker + sequence);
    }

    /**
     * Creates one order; fails unless the server answers 201. Its one line names one of
     * {@link Shape#aggregates()} products in turn, as a shop's orders spread over its catalogue: with one
     * product for every order, the inventory consumer's updates of that one stock row waited for each
     * other, and the write path measured that row's lock as much as the append.
     */
    void createOrder(String customerId) throws Exception {
        String sku = "BENCH-" + created.getAndIncrement() % Shape.aggregates();
        String body = "{\"customerId\":\"" + customerId + "\",\"lines\":[{\"sku\":\"" + sku
                + "\",\"quantity\":1,\"unitPrice\":9.99}]}";
        HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() != 201) {
            throw new IllegalStateException("POST /api/orders answered " + answer.statusCode());
        }
    }

    /** The server's sample consumers read every order's event too: the next step waits until they caught up. */
    @Override
    public void settle(Env env) {
        double seconds = SampleConsumers.awaitCaughtUp(env, Duration.ofMinutes(10));
        System.out.printf("steady   the server's sample consumers caught up in %.1f s%n", seconds);
    }

    @Override
    public long sequenceOf(String value) {
        Matcher found = sequence.matcher(value == null ? "" : value);
        return found.find() ? Long.parseLong(found.group(1)) : -1;
    }

    @Override
    public void close() {
        // the client's connections close with it
    }
}

package io.outboxrelay.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes orders through the servers' REST API at a fixed rate, the way a client would, and keeps
 * count of every answer: accepted (201, with the order id), refused with a 503 problem document,
 * any other status (which should never happen), and no answer (the server died under the request).
 * Each order has one line of one unit, so the inventory consumer's effect for a run is its order count.
 */
final class OrderLoad implements AutoCloseable {

    private static final int MAX_IN_FLIGHT = 32;

    private final String tag;
    private final List<Server> servers;
    private final int total;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final Set<String> acceptedIds = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong unexpected = new AtomicLong();
    private final AtomicLong noAnswer = new AtomicLong();
    private volatile String firstUnexpected;

    private OrderLoad(String tag, List<Server> servers, int total) {
        this.tag = tag;
        this.servers = servers;
        this.total = total;
    }

    /** Starts offering {@code ratePerSecond} orders a second, round robin over the servers that serve, until {@code total} are accepted. */
    static OrderLoad start(String tag, List<Server> servers, int total, int ratePerSecond) {
        OrderLoad load = new OrderLoad(tag, servers, total);
        long periodMicros = 1_000_000L / ratePerSecond;
        load.ticker.scheduleAtFixedRate(load::offer, 0, periodMicros, TimeUnit.MICROSECONDS);
        return load;
    }

    int accepted() {
        return acceptedIds.size();
    }

    Set<String> acceptedIds() {
        return Set.copyOf(acceptedIds);
    }

    long refused() {
        return refused.get();
    }

    long unexpected() {
        return unexpected.get();
    }

    long noAnswer() {
        return noAnswer.get();
    }

    Optional<String> firstUnexpected() {
        return Optional.ofNullable(firstUnexpected);
    }

    boolean done() {
        return acceptedIds.size() >= total;
    }

    void awaitAccepted(int count, Duration patience) {
        Waits.until(tag + ": " + count + " orders accepted", patience, Duration.ofMillis(100), () -> accepted() >= count);
    }

    void awaitDone(Duration patience) {
        awaitAccepted(total, patience);
        ticker.shutdown();
        Waits.until(tag + ": answers to every request", Duration.ofSeconds(60), Duration.ofMillis(50),
                () -> inFlight.availablePermits() == MAX_IN_FLIGHT);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }

    private void offer() {
        if (acceptedIds.size() + (MAX_IN_FLIGHT - inFlight.availablePermits()) >= total) {
            return;
        }
        List<Server> up = servers.stream().filter(Server::serving).toList();
        if (up.isEmpty() || !inFlight.tryAcquire()) {
            return; // the offer is skipped, as a client would hold back from a server that is down
        }
        int n = sent.getAndIncrement();
        Server server = up.get(n % up.size());
        String body = """
                {"customerId":"%s","lines":[{"sku":"%s-%d","quantity":1,"unitPrice":"1.00"}]}"""
                .formatted(tag, tag, n % 20);
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/orders"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .whenComplete((response, failure) -> {
                    try {
                        record(response, failure);
                    } finally {
                        inFlight.release();
                    }
                });
    }

    private void record(HttpResponse<String> response, Throwable failure) {
        if (failure != null) {
            if (failure.getCause() instanceof IOException || failure instanceof IOException) {
                noAnswer.incrementAndGet();
            } else {
                countUnexpected(failure.toString());
            }
            return;
        }
        int status = response.statusCode();
        boolean problem = response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json");
        if (status == 201) {
            String location = response.headers().firstValue("Location").orElse("");
            acceptedIds.add(location.substring(location.lastIndexOf('/') + 1));
        } else if (status == 503 && problem) {
            refused.incrementAndGet();
        } else {
            countUnexpected(status + " " + response.body());
        }
    }

    private void countUnexpected(String what) {
        unexpected.incrementAndGet();
        if (firstUnexpected == null) {
            firstUnexpected = what.length() > 300 ? what.substring(0, 300) : what;
        }
    }
}

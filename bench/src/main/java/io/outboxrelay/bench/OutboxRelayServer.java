package io.outboxrelay.bench;

import org.apache.kafka.clients.admin.Admin;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Outbox Relay in its Liberty server: the rows are committed into {@code outbox_event} (as the
 * server's own append would write them), and the server's relay publishes them. While it
 * drains, the server's resident memory is sampled.
 */
final class OutboxRelayServer implements Contender {

    private final AtomicLong maxRssKiB = new AtomicLong();

    @Override
    public String name() {
        return "outbox-relay";
    }

    @Override
    public String settings() {
        return "the running server's settings (defaults unless its environment says otherwise)";
    }

    long maxRssKiB() {
        return maxRssKiB.get();
    }

    @Override
    public long drain(Env env, int n) throws Exception {
        requireReady(env);
        String topic = env.freshTopic(name());
        try (Admin admin = env.admin()) {
            env.sql("INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers)"
                    + " SELECT gen_random_uuid(), 'Bench', 'agg-' || (i % " + Shape.AGGREGATES + "), 'BenchEvent', '"
                    + topic + "', " + Shape.payloadSql("i") + ", '{}'::jsonb FROM generate_series(1, " + n + ") AS i");
            long start = System.nanoTime(); // committed: the relay may start now
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            if (env.serverPid() > 0) {
                Path status = Path.of("/proc", Long.toString(env.serverPid()), "status");
                sampler.scheduleAtFixedRate(() -> sampleRss(status), 0, 200, TimeUnit.MILLISECONDS);
            }
            try {
                return Env.awaitOnTopic(admin, topic, n, Duration.ofMinutes(30)) - start;
            } finally {
                sampler.shutdownNow();
            }
        }
    }

    private void sampleRss(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmRSS:")) {
                    maxRssKiB.accumulateAndGet(Long.parseLong(line.replaceAll("[^0-9]", "")), Math::max);
                }
            }
        } catch (Exception gone) {
            // the server stopped: nothing more to sample
        }
    }

    private static void requireReady(Env env) throws Exception {
        HttpResponse<String> ready = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(env.serverUrl() + "/health/ready")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (ready.statusCode() != 200) {
            throw new IllegalStateException("the Outbox Relay server at " + env.serverUrl() + " is not ready: " + ready.body());
        }
    }
}

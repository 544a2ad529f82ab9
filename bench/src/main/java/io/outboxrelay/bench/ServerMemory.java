package io.outboxrelay.bench;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Outbox Relay server's memory while it works: resident memory of its JVM process (when its
 * PID is known) and used heap as the server's own mpMetrics endpoint reports it. Keeps the peaks.
 */
final class ServerMemory {

    private static final Pattern USED_HEAP = Pattern.compile("(?m)^memory_usedHeap_bytes\\{[^}]*}\\s+(\\S+)");

    private final AtomicLong peakRssKiB = new AtomicLong();
    private final AtomicLong peakHeapBytes = new AtomicLong();
    private final HttpClient http = Env.http();

    long peakRssMiB() {
        return peakRssKiB.get() / 1024;
    }

    long peakHeapMiB() {
        return peakHeapBytes.get() / (1024 * 1024);
    }

    /** Samples until the returned handle is closed: RSS every 200 ms, heap every 500 ms. */
    AutoCloseable sample(Env env) {
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        if (env.serverPid() > 0) {
            Path status = Path.of("/proc", Long.toString(env.serverPid()), "status");
            sampler.scheduleAtFixedRate(() -> sampleRss(status), 0, 200, TimeUnit.MILLISECONDS);
        }
        URI metrics = URI.create(env.serverUrl() + "/metrics?scope=base");
        sampler.scheduleAtFixedRate(() -> sampleHeap(metrics), 0, 500, TimeUnit.MILLISECONDS);
        return sampler::shutdownNow;
    }

    private void sampleRss(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmRSS:")) {
                    peakRssKiB.accumulateAndGet(Long.parseLong(line.replaceAll("[^0-9]", "")), Math::max);
                }
            }
        } catch (Exception gone) {
            // the server stopped: nothing more to sample
        }
    }

    private void sampleHeap(URI metrics) {
        try {
            String body = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher used = USED_HEAP.matcher(body);
            if (used.find()) {
                peakHeapBytes.accumulateAndGet((long) Double.parseDouble(used.group(1)), Math::max);
            }
        } catch (Exception missed) {
            // a busy or stopping server may not answer in time: this sample is skipped
        }
    }
}

package io.outboxrelay.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Outbox Relay server's memory while it works: resident memory of its JVM process (when its
 * PID is known) and used heap as the server's own mpMetrics endpoint reports it. Keeps the peaks.
 * Used heap includes garbage, so with the PID known each drain also ends with a full GC
 * ({@code jcmd GC.run}) and the used heap after it, and the share of the drain's wall time the JVM
 * spent in GC ({@code jstat -gc}, GCT): whether the heap holds what it should, and whether GC thrashed.
 */
final class ServerMemory {

    private static final Pattern USED_HEAP = Pattern.compile("(?m)^memory_usedHeap_bytes\\{[^}]*}\\s+(\\S+)");

    private final AtomicLong peakRssKiB = new AtomicLong();
    private final AtomicLong peakHeapBytes = new AtomicLong();
    private final HttpClient http = Env.http();
    private final List<AfterDrain> drains = new CopyOnWriteArrayList<>();

    /**
     * One drain of {@code rows}: the share of its wall time the JVM spent in GC (NaN: not measured)
     * and the used heap after the full GC that ended it (0: not measured).
     */
    record AfterDrain(int rows, double gcShare, long heapAfterGcMiB) {
    }

    long peakRssMiB() {
        return peakRssKiB.get() / 1024;
    }

    long peakHeapMiB() {
        return peakHeapBytes.get() / (1024 * 1024);
    }

    /** What the drains watched with {@link #watchDrain} left; empty when the PID was not known. */
    List<AfterDrain> drains() {
        return drains;
    }

    /**
     * Samples through one drain of {@code rows}, until the returned handle is closed; then, the PID
     * known, notes the drain's GC time share, runs a full GC and notes the used heap after it.
     */
    AutoCloseable watchDrain(Env env, int rows) {
        AutoCloseable sampling = sample(env);
        if (env.serverPid() <= 0) {
            return sampling;
        }
        double gcSecondsBefore = gcSeconds(env.serverPid());
        long start = System.nanoTime();
        return () -> {
            sampling.close();
            double wall = (System.nanoTime() - start) / 1e9;
            double gcShare = (gcSeconds(env.serverPid()) - gcSecondsBefore) / wall;
            long used = 0;
            try {
                JdkTools.run("jcmd", Long.toString(env.serverPid()), "GC.run");
                used = usedHeap(URI.create(env.serverUrl() + "/metrics?scope=base"));
            } catch (Exception notMeasured) {
                System.out.println("memory   no used heap after GC for this drain: " + notMeasured.getMessage());
            }
            AfterDrain after = new AfterDrain(rows, gcShare, used / (1024 * 1024));
            drains.add(after);
            System.out.printf("memory   %,d rows drained: GC %.1f%% of the time, used heap after a full GC %s MiB%n", rows,
                    100 * gcShare, used > 0 ? Long.toString(after.heapAfterGcMiB()) : "unknown");
        };
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
        peakHeapBytes.accumulateAndGet(usedHeap(metrics), Math::max);
    }

    /** Used heap in bytes as the server reports it now; 0 when it did not answer. */
    private long usedHeap(URI metrics) {
        try {
            String body = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher used = USED_HEAP.matcher(body);
            return used.find() ? (long) Double.parseDouble(used.group(1)) : 0;
        } catch (Exception missed) {
            // a busy or stopping server may not answer in time: this sample is skipped
            return 0;
        }
    }

    /** The JVM's total GC time so far in seconds (the GCT column of {@code jstat -gc}); NaN when jstat could not tell. */
    private static double gcSeconds(long pid) {
        return JdkTools.jstat(pid, "-gc", "GCT", "memory   no GC time for this drain");
    }
}

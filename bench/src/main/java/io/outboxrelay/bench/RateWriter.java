package io.outboxrelay.bench;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes events at a fixed rate for a fixed time (or, to warm up, a number of them unpaced): a scheduled tick every 2 ms hands the events now
 * due to {@link #THREADS} writer threads (as concurrent requests of a service would), each write
 * one commit. When the writers fall more than two seconds behind the schedule, writing stops: the
 * rate is beyond what the write side sustains.
 */
final class RateWriter {

    static final int THREADS = 16;
    private static final long TICK_MICROS = 2_000;

    /** What was written: commit times by index ({@code sequence - first}, 0 = not written). */
    record Written(long count, double perSecond, boolean keptUp, String firstError, AtomicLongArray commitNanos) {
    }

    /** What a burst wrote, in how long, and its first failure (null when none failed). */
    record Burst(long written, double seconds, String firstError) {
    }

    private RateWriter() {
    }

    /** Writes {@code count} events back to back from {@link #THREADS} threads, unpaced. */
    static Burst burst(Steady steady, long first, int count) throws InterruptedException {
        AtomicLong written = new AtomicLong();
        AtomicReference<String> error = new AtomicReference<>();
        ExecutorService writers = Executors.newFixedThreadPool(THREADS);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long sequence = first + i;
            writers.execute(() -> {
                try {
                    steady.write(sequence);
                    written.incrementAndGet();
                } catch (Exception failed) {
                    error.compareAndSet(null, String.valueOf(failed));
                }
            });
        }
        writers.shutdown();
        if (!writers.awaitTermination(10, TimeUnit.MINUTES)) {
            writers.shutdownNow();
            throw new IllegalStateException(count + " writes still busy after 10 minutes");
        }
        return new Burst(written.get(), (System.nanoTime() - start) / 1e9, error.get());
    }

    static Written write(Steady steady, long first, int rate, Duration duration) throws Exception {
        int total = (int) Math.min(Integer.MAX_VALUE, rate * duration.toMillis() / 1000);
        AtomicLongArray commits = new AtomicLongArray(total);
        AtomicLong written = new AtomicLong();
        AtomicLong lastCommit = new AtomicLong();
        AtomicReference<String> error = new AtomicReference<>();
        ThreadPoolExecutor writers = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<Boolean> scheduled = new CompletableFuture<>();
        long start = System.nanoTime();
        AtomicLong next = new AtomicLong();
        ScheduledFuture<?> ticks = ticker.scheduleAtFixedRate(() -> {
            long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L);
            if (writers.getQueue().size() > 2L * rate || error.get() != null) {
                scheduled.complete(false);
                return;
            }
            for (long index = next.get(); index < due; index = next.incrementAndGet()) {
                int slot = (int) index;
                writers.execute(() -> {
                    try {
                        steady.write(first + slot);
                        long now = System.nanoTime();
                        commits.set(slot, now);
                        lastCommit.accumulateAndGet(now, Math::max);
                        written.incrementAndGet();
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt(); // writing stopped because the writers fell behind
                    } catch (Exception failed) {
                        error.compareAndSet(null, String.valueOf(failed));
                    }
                });
            }
            if (due >= total) {
                scheduled.complete(true);
            }
        }, 0, TICK_MICROS, TimeUnit.MICROSECONDS);
        boolean keptUp;
        try {
            keptUp = scheduled.get(duration.toMillis() + 60_000, TimeUnit.MILLISECONDS);
        } finally {
            ticks.cancel(false);
            ticker.shutdownNow();
        }
        if (keptUp) {
            writers.shutdown();
        } else {
            writers.shutdownNow(); // what is still queued is never written
        }
        if (!writers.awaitTermination(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("writers still busy two minutes after the last event was due");
        }
        double seconds = Math.max(1, lastCommit.get() - start) / 1e9;
        return new Written(written.get(), written.get() / seconds, keptUp && error.get() == null, error.get(), commits);
    }
}

package io.outboxrelay.bench;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write path's cost: {@value #CLIENTS} clients create orders through the server's API back to
 * back for a fixed time (after a warm-up that is not counted and lasts until the server's JIT has done
 * its work, see {@link #warmUp}); orders per second is the
 * figure. Run against a server that appends the {@code OrderCreated} event (relays it, and its two
 * sample consumers read it), one whose sample consumers read another topic, one that appends with
 * its relay off ({@code outbox.relay.enabled=false}, the consumers away too) and one started with
 * {@code outbox.sample.orders.append-events=false}: the append's cost and the relay's, told apart.
 */
final class WritePath {

    static final int CLIENTS = 8;
    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static final int SETTLED_WINDOWS = 3;
    private static final double SETTLED = 0.05;
    /** Compiling for at most this share of a window's time counts as the JIT being done. */
    private static final double JIT_QUIET = 0.02;
    private static final int QUIET_WINDOWS = 2;
    /** The longest warm-up, for a full run: four times the least (twice the counted time), at most this. */
    private static final Duration MOST = Duration.ofMinutes(8);

    /**
     * One server's figure. {@code lowWindow} and {@code highWindow}: the fewest and most orders per second of the
     * counted time's 10 s windows. {@code warmedBy}: what ended the warm-up. {@code compileSeconds}: the JIT's
     * compile time while the orders were counted (NaN when the server's PID is not known). {@code consumersBehind}:
     * events the sample consumers had not yet consumed when the writing stopped, and {@code catchUpSeconds} until
     * they had (-1 and NaN when they read another topic). {@code cpu}: where the machine's CPU went per order while
     * the orders were counted (null where there is no {@code /proc} to read).
     */
    record Result(String server, int clients, double seconds, long orders, double perSecond, double lowWindow,
                  double highWindow, long failures, long consumersBehind, double catchUpSeconds, double warmUpSeconds,
                  WarmedBy warmedBy, double compileSeconds, ProcessCpu.PerOrder cpu) {
    }

    /** What ended a warm-up. */
    enum WarmedBy {
        JIT_QUIET("the JIT quiet"), RATE_SETTLED("the rate settled"), LIMIT("the limit, still warming");

        final String words;

        WarmedBy(String words) {
            this.words = words;
        }
    }

    private record WarmUp(double seconds, WarmedBy by) {
    }

    /**
     * Lets the clients run for at least {@code least}, and on until the server's JIT has compiled what the load needs:
     * in each of the last {@value #QUIET_WINDOWS} windows of {@link #WINDOW} it compiled for at most 2%
     * ({@link #JIT_QUIET}) of the window. Without the server's PID, until the last {@value #SETTLED_WINDOWS} windows
     * created orders within 5% ({@link #SETTLED}) of their mean rate. At most four times {@code least}, up to
     * {@link #MOST}: a smoke run, which only checks that the harness works, is not held up.
     * <p>
     * The rate alone was not enough: on two cores a freshly started server's C2 compiler takes most of a core for
     * about three minutes of this load, the rate settles on a plateau meanwhile (400-530 orders/s, appending with the
     * relay off) and jumps once the compiler is done (600-1,000).
     */
    private static WarmUp warmUp(AtomicLong created, Duration least, long serverPid) throws InterruptedException {
        long start = System.nanoTime();
        long most = Math.min(MOST.toSeconds(), 4 * least.toSeconds());
        Deque<Long> windows = new ArrayDeque<>();
        Deque<Double> compiling = new ArrayDeque<>();
        double compiled = serverPid > 0 ? compileSeconds(serverPid) : Double.NaN;
        while (true) {
            windows.addLast(createdDuring(created, WINDOW));
            if (!Double.isNaN(compiled)) {
                double now = compileSeconds(serverPid);
                compiling.addLast(now - compiled);
                compiled = now;
            }
            trim(windows, SETTLED_WINDOWS);
            trim(compiling, QUIET_WINDOWS);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (seconds >= least.toSeconds()) {
                if (Double.isNaN(compiled) ? windows.size() == SETTLED_WINDOWS && settled(windows)
                        : compiling.size() == QUIET_WINDOWS && quiet(compiling)) {
                    return new WarmUp(seconds, Double.isNaN(compiled) ? WarmedBy.RATE_SETTLED : WarmedBy.JIT_QUIET);
                }
            }
            if (seconds >= most) {
                return new WarmUp(seconds, WarmedBy.LIMIT);
            }
        }
    }

    private static <T> void trim(Deque<T> windows, int keep) {
        while (windows.size() > keep) {
            windows.removeFirst();
        }
    }

    /** The orders the clients created in the next {@code time}: the harness's measuring window, waited out. */
    private static long createdDuring(AtomicLong created, Duration time) throws InterruptedException {
        long from = created.get();
        Thread.sleep(time.toMillis());
        return created.get() - from;
    }

    /** Whether every count is within {@link #SETTLED} of their mean. */
    private static boolean settled(Collection<Long> counts) {
        double mean = counts.stream().mapToLong(Long::longValue).average().orElse(0);
        return mean > 0 && counts.stream().allMatch(count -> Math.abs(count - mean) <= SETTLED * mean);
    }

    /** Whether the JIT compiled for at most {@link #JIT_QUIET} of each window. */
    private static boolean quiet(Collection<Double> compileSeconds) {
        return compileSeconds.stream().allMatch(seconds -> seconds <= JIT_QUIET * WINDOW.toSeconds());
    }

    /** The server JVM's total JIT compile time so far (the Time column of {@code jstat -compiler}); NaN if unknown. */
    private static double compileSeconds(long pid) {
        return JdkTools.jstat(pid, "-compiler", "Time", "write    no JIT compile time");
    }

    private WritePath() {
    }

    static Result measure(Env env, String server, boolean consumersRead, Duration warmUp, Duration time) throws Exception {
        OutboxRelayServer.requireReady(env);
        System.out.printf("write    %d clients creating orders for %d s after a warm-up of %d s or more (%s) ...%n", CLIENTS,
                time.toSeconds(), warmUp.toSeconds(), server);
        OrdersApiWriter api = new OrdersApiWriter(env.serverUrl());
        AtomicLong created = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            int id = client;
            running.add(clients.submit(() -> {
                for (long n = 0; !stop.get(); n++) {
                    try {
                        api.createOrder("bench-write-" + id + "-" + n);
                        created.incrementAndGet();
                    } catch (Exception failed) {
                        failures.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        long counted = 0;
        double low = Double.MAX_VALUE;
        double high = 0;
        double compileSeconds = Double.NaN;
        WarmUp warm;
        ProcessCpu.PerOrder cpu = null;
        try {
            warm = warmUp(created, warmUp, env.serverPid());
            double compiledBefore = env.serverPid() > 0 ? compileSeconds(env.serverPid()) : Double.NaN;
            boolean countCpu = ProcessCpu.available();
            ProcessCpu.Sample before = countCpu ? ProcessCpu.sample(env.serverPid()) : null;
            for (Duration left = time; !left.isZero() && !left.isNegative(); left = left.minus(WINDOW)) {
                Duration window = left.compareTo(WINDOW) < 0 ? left : WINDOW;
                long orders = createdDuring(created, window);
                counted += orders;
                low = Math.min(low, orders / (window.toNanos() / 1e9));
                high = Math.max(high, orders / (window.toNanos() / 1e9));
            }
            if (countCpu) {
                cpu = ProcessCpu.perOrder(before, ProcessCpu.sample(env.serverPid()), counted);
            }
            if (!Double.isNaN(compiledBefore)) {
                compileSeconds = compileSeconds(env.serverPid()) - compiledBefore;
            }
        } finally {
            stop.set(true);
        }
        try {
            for (Future<?> client : running) {
                client.get();
            }
        } finally {
            clients.shutdownNow();
        }
        double seconds = time.toNanos() / 1e9;
        long behind = consumersRead ? SampleConsumers.behind(env) : -1;
        // what the consumers owe would slow the next figure: it is paid here, and timed
        double catchUp = consumersRead ? SampleConsumers.awaitCaughtUp(env, Duration.ofMinutes(15)) : Double.NaN;
        Result result = new Result(server, CLIENTS, seconds, counted, counted / seconds, low, high, failures.get(), behind,
                catchUp, warm.seconds(), warm.by(), compileSeconds, cpu);
        System.out.printf("write    %,8.0f orders/s (windows of up to 10 s: %,.0f-%,.0f; %,d orders; %d failed, warm-up included;"
                        + " warm-up %.0f s, until %s; JIT compiling %s s while counted): %s%s%n", result.perSecond(), low,
                high, result.orders(), result.failures(), warm.seconds(), warm.by().words,
                Double.isNaN(compileSeconds) ? "unknown" : String.format(Locale.ROOT, "%.1f", compileSeconds), server,
                consumersRead ? String.format(", the sample consumers %,d events behind at the end, caught up %.1f s later",
                        behind, catchUp) : "");
        if (cpu != null) {
            System.out.printf("write    %s%n", cpu.describe());
        }
        return result;
    }
}

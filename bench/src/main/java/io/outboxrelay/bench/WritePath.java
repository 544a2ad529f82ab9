package io.outboxrelay.bench;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write path's cost: {@value #CLIENTS} clients create orders through the server's API back to
 * back for a fixed time (after a warm-up that is not counted and lasts until the rate has settled, see
 * {@link #warmUp}); orders per second is the
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
    private static final Duration MOST = Duration.ofMinutes(5);

    /**
     * One server's figure. {@code consumersBehind}: events the sample consumers had not yet consumed
     * when the writing stopped, and {@code catchUpSeconds} until they had (-1 and NaN when they read
     * another topic).
     */
    record Result(String server, int clients, double seconds, long orders, double perSecond, long failures,
                  long consumersBehind, double catchUpSeconds, double warmUpSeconds, boolean steady) {
    }

    /** How long the warm-up took, and whether the rate had settled by its end. */
    private record WarmUp(double seconds, boolean steady) {
    }

    /**
     * Lets the clients run for at least {@code least}, and on until the last {@value #SETTLED_WINDOWS} windows of
     * {@link #WINDOW} each created orders within 5% ({@link #SETTLED}) of their mean rate, or {@link #MOST} has passed.
     * A fixed warm-up was not enough: the same server created 527 orders/s after one minute of load and 955 after
     * two (its JIT still compiling the request path on cores the load shares), so a figure measured on a server just
     * restarted compared its cold rate with another's warm one.
     */
    private static WarmUp warmUp(AtomicLong created, Duration least) throws InterruptedException {
        long start = System.nanoTime();
        Deque<Long> windows = new ArrayDeque<>();
        while (true) {
            windows.addLast(createdDuring(created, WINDOW));
            if (windows.size() > SETTLED_WINDOWS) {
                windows.removeFirst();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (seconds >= least.toSeconds() && windows.size() == SETTLED_WINDOWS && settled(windows)) {
                return new WarmUp(seconds, true);
            }
            if (seconds >= MOST.toSeconds()) {
                return new WarmUp(seconds, false);
            }
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
        long counted;
        WarmUp warm;
        try {
            warm = warmUp(created, warmUp);
            counted = createdDuring(created, time);
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
        Result result = new Result(server, CLIENTS, seconds, counted, counted / seconds, failures.get(), behind, catchUp,
                warm.seconds(), warm.steady());
        System.out.printf("write    %,8.0f orders/s (%,d orders; %d failed, warm-up included; warm-up %.0f s, %s): %s%s%n",
                result.perSecond(), result.orders(), result.failures(), warm.seconds(),
                warm.steady() ? "steady" : "still changing", server, consumersRead ? String.format(", the sample consumers"
                        + " %,d events behind at the end, caught up %.1f s later", behind, catchUp) : "");
        return result;
    }
}

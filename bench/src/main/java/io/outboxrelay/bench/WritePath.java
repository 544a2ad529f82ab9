package io.outboxrelay.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write path's cost: {@value #CLIENTS} clients create orders through the server's API back to
 * back for a fixed time (after a warm-up that is not counted); orders per second is the
 * figure. Run against a server that appends the {@code OrderCreated} event (relays it, and its two
 * sample consumers read it), one whose sample consumers read another topic, one that appends with
 * its relay off ({@code outbox.relay.enabled=false}, the consumers away too) and one started with
 * {@code outbox.sample.orders.append-events=false}: the append's cost and the relay's, told apart.
 */
final class WritePath {

    static final int CLIENTS = 8;

    /**
     * One server's figure. {@code consumersBehind}: events the sample consumers had not yet consumed
     * when the writing stopped, and {@code catchUpSeconds} until they had (-1 and NaN when they read
     * another topic).
     */
    record Result(String server, int clients, double seconds, long orders, double perSecond, long failures,
                  long consumersBehind, double catchUpSeconds) {
    }

    private WritePath() {
    }

    static Result measure(Env env, String server, boolean consumersRead, Duration warmUp, Duration time) throws Exception {
        OutboxRelayServer.requireReady(env);
        System.out.printf("write    %d clients creating orders for %d s (%s) ...%n", CLIENTS, time.toSeconds(), server);
        OrdersApiWriter api = new OrdersApiWriter(env.serverUrl());
        AtomicLong counted = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long countFrom = System.nanoTime() + warmUp.toNanos();
        long until = countFrom + time.toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int client = 0; client < CLIENTS; client++) {
            int id = client;
            running.add(clients.submit(() -> {
                for (long n = 0; System.nanoTime() < until; n++) {
                    try {
                        api.createOrder("bench-write-" + id + "-" + n);
                        long now = System.nanoTime();
                        if (now >= countFrom && now < until) {
                            counted.incrementAndGet();
                        }
                    } catch (Exception failed) {
                        failures.incrementAndGet();
                    }
                }
                return null;
            }));
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
        Result result = new Result(server, CLIENTS, seconds, counted.get(), counted.get() / seconds, failures.get(), behind,
                catchUp);
        System.out.printf("write    %,8.0f orders/s (%,d orders, %d failed): %s%s%n", result.perSecond(), result.orders(),
                result.failures(), server, consumersRead ? String.format(", the sample consumers %,d events behind at the end,"
                        + " caught up %.1f s later", behind, catchUp) : "");
        return result;
    }
}

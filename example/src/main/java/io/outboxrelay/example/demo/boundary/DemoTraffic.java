package io.outboxrelay.example.demo.boundary;

import io.outboxrelay.example.orders.boundary.Orders;
import io.outboxrelay.example.orders.entity.OrderLine;
import io.outboxrelay.outbox.boundary.Outbox;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * While {@code outbox.demo.enabled} is true: one sample order every
 * {@code outbox.demo.interval-ms} (default 1000), every 7th tick a cancellation of a recent
 * order, every 25th a poison event (a payload bigger than Kafka accepts, so it cannot be
 * published, not even to its dead-letter topic: it ends DEAD, for the console to show).
 */
@Singleton
@Startup
@DependsOn("SampleSchemaMigration")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DemoTraffic {

    private static final Logger LOG = Logger.getLogger(DemoTraffic.class.getName());
    private static final List<String> SKUS = List.of("mug", "teapot", "kettle", "cup", "saucer", "tray");
    private static final int POISON_BYTES = 1_200_000; // over the producer's 1 MiB max.request.size

    @Inject
    @ConfigProperty(name = "outbox.demo.enabled", defaultValue = "false")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "outbox.demo.interval-ms", defaultValue = "1000")
    long intervalMs;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    Orders orders;

    @Inject
    Poison poison;

    private final Deque<UUID> recent = new ArrayDeque<>();
    private ScheduledFuture<?> ticking;
    private long ticks;

    @PostConstruct
    void start() {
        if (enabled) {
            LOG.info(() -> "Demo traffic on: one sample order every " + intervalMs + " ms, with cancellations and poison events");
            ticking = scheduler.scheduleWithFixedDelay(this::tickSafely, 2000, intervalMs, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) { // the database may be away for a moment; the next tick tries again
            LOG.fine(() -> "demo tick failed: " + e);
        }
    }

    private void tick() {
        ticks++;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (ticks % 25 == 0) {
            poison.append();
            return;
        }
        if (ticks % 7 == 0 && !recent.isEmpty()) {
            orders.cancel(recent.pollFirst());
            return;
        }
        int lines = 1 + random.nextInt(3);
        List<OrderLine> order = random.ints(lines, 0, SKUS.size())
                .mapToObj(sku -> new OrderLine(SKUS.get(sku), 1 + random.nextInt(4), BigDecimal.valueOf(3 + random.nextInt(40))))
                .toList();
        recent.addLast(orders.create("demo-customer-" + random.nextInt(50), order).orderId());
        if (recent.size() > 20) {
            recent.pollFirst();
        }
    }

    /** Appends one event no Kafka broker will take, in its own transaction. */
    @jakarta.enterprise.context.ApplicationScoped
    @Transactional
    public static class Poison {

        @Inject
        Outbox outbox;

        public void append() {
            outbox.append("DemoParcel", UUID.randomUUID().toString(), "ParcelWeighed",
                    Map.of("note", "deliberately too large for Kafka", "padding", "x".repeat(POISON_BYTES)));
        }
    }
}

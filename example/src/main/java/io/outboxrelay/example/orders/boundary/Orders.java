package io.outboxrelay.example.orders.boundary;

import io.outboxrelay.example.orders.entity.Order;
import io.outboxrelay.example.orders.entity.OrderEvents;
import io.outboxrelay.example.orders.entity.OrderEvents.OrderCancelled;
import io.outboxrelay.example.orders.entity.OrderEvents.OrderCreated;
import io.outboxrelay.example.orders.entity.OrderEvents.OrderPaid;
import io.outboxrelay.example.orders.entity.OrderLine;
import io.outboxrelay.example.orders.entity.OrderNotFoundException;
import io.outboxrelay.example.orders.entity.OrderStatus;
import io.outboxrelay.outbox.boundary.Outbox;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * The order use cases. Each runs in one transaction that changes the order and appends the
 * matching event to the outbox: both commit, or neither does.
 */
@ApplicationScoped
@Transactional
public class Orders {

    /** What a use case changed: the order, its status now, and the event it published. */
    public record Outcome(UUID orderId, OrderStatus status, UUID eventId) {
    }

    @PersistenceContext
    EntityManager em;

    @Inject
    Outbox outbox;

    @Inject
    @OutboxClock
    Clock clock;

    /** Benchmark only: {@code false} leaves the outbox out, so the bench can measure what the append costs. */
    @Inject
    @ConfigProperty(name = "outbox.sample.orders.append-events", defaultValue = "true")
    boolean appendEvents;

    public Outcome create(String customerId, List<OrderLine> lines) {
        Order order = new Order(UUID.randomUUID(), customerId, lines, now());
        em.persist(order);
        UUID eventId = append(order.getId(), OrderCreated.TYPE, OrderCreated.of(order));
        return new Outcome(order.getId(), order.getStatus(), eventId);
    }

    public Outcome pay(UUID orderId) {
        Order order = lockedOrder(orderId);
        order.pay(now());
        UUID eventId = append(orderId, OrderPaid.TYPE, OrderPaid.of(order));
        return new Outcome(orderId, order.getStatus(), eventId);
    }

    public Outcome cancel(UUID orderId) {
        Order order = lockedOrder(orderId);
        OrderStatus before = order.getStatus();
        order.cancel(now());
        UUID eventId = append(orderId, OrderCancelled.TYPE, OrderCancelled.of(order, before));
        return new Outcome(orderId, order.getStatus(), eventId);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Order find(UUID orderId) {
        Order order = em.find(Order.class, orderId);
        if (order == null) {
            throw new OrderNotFoundException(orderId);
        }
        return order;
    }

    /** The event in the use case's transaction; no event id when the benchmark switched appends off. */
    private UUID append(UUID orderId, String eventType, Object payload) {
        return appendEvents ? outbox.append(OrderEvents.AGGREGATE_TYPE, orderId.toString(), eventType, payload) : null;
    }

    /** Row lock, so two concurrent transitions of one order serialise instead of both passing the check. */
    private Order lockedOrder(UUID orderId) {
        Order order = em.find(Order.class, orderId, LockModeType.PESSIMISTIC_WRITE);
        if (order == null) {
            throw new OrderNotFoundException(orderId);
        }
        return order;
    }

    private OffsetDateTime now() {
        return OffsetDateTime.now(clock);
    }
}

package io.outboxrelay.example.orders.entity;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * An order and its rules: CREATED may be paid or cancelled, PAID may be cancelled,
 * CANCELLED is final.
 */
@Entity
@Table(name = "orders")
public class Order {

    @Id
    private UUID id;

    @Column(name = "customer_id", nullable = false, updatable = false)
    private String customerId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private OrderStatus status;

    @Column(nullable = false, updatable = false)
    private BigDecimal total;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "order_line", joinColumns = @JoinColumn(name = "order_id"))
    @OrderColumn(name = "line_no")
    private List<OrderLine> lines = new ArrayList<>();

    @Column(name = "created_at", nullable = false, updatable = false)
    private OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    private OffsetDateTime updatedAt;

    @Version
    private long version;

    protected Order() {
        // for JPA
    }

    public Order(UUID id, String customerId, List<OrderLine> lines, OffsetDateTime now) {
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("an order needs at least one line");
        }
        this.id = id;
        this.customerId = customerId;
        this.lines = new ArrayList<>(lines);
        this.total = lines.stream().map(OrderLine::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
        this.status = OrderStatus.CREATED;
        this.createdAt = now;
        this.updatedAt = now;
    }

    public void pay(OffsetDateTime now) {
        if (status != OrderStatus.CREATED) {
            throw new IllegalOrderTransitionException("Order " + id + " is " + status + "; only a CREATED order can be paid");
        }
        moveTo(OrderStatus.PAID, now);
    }

    public void cancel(OffsetDateTime now) {
        if (status == OrderStatus.CANCELLED) {
            throw new IllegalOrderTransitionException("Order " + id + " is already CANCELLED");
        }
        moveTo(OrderStatus.CANCELLED, now);
    }

    private void moveTo(OrderStatus next, OffsetDateTime now) {
        this.status = next;
        this.updatedAt = now;
    }

    public UUID getId() { return id; }
    public String getCustomerId() { return customerId; }
    public OrderStatus getStatus() { return status; }
    public BigDecimal getTotal() { return total; }
    public List<OrderLine> getLines() { return List.copyOf(lines); }
    public OffsetDateTime getCreatedAt() { return createdAt; }
    public OffsetDateTime getUpdatedAt() { return updatedAt; }
}

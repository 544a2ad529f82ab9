package io.outboxrelay.example.orders.entity;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** The events an order publishes (version 1 of each): their JSON is the Kafka record value. */
public final class OrderEvents {

    public static final String AGGREGATE_TYPE = "Order";

    private OrderEvents() {
    }

    public record Line(String sku, int quantity, BigDecimal unitPrice) {
    }

    public record OrderCreated(UUID orderId, String customerId, List<Line> lines, BigDecimal total,
                               OffsetDateTime createdAt) {
        public static final String TYPE = "OrderCreated";

        public static OrderCreated of(Order order) {
            List<Line> lines = order.getLines().stream()
                    .map(line -> new Line(line.getSku(), line.getQuantity(), line.getUnitPrice()))
                    .toList();
            return new OrderCreated(order.getId(), order.getCustomerId(), lines, order.getTotal(), order.getCreatedAt());
        }
    }

    public record OrderPaid(UUID orderId, BigDecimal total, OffsetDateTime paidAt) {
        public static final String TYPE = "OrderPaid";

        public static OrderPaid of(Order order) {
            return new OrderPaid(order.getId(), order.getTotal(), order.getUpdatedAt());
        }
    }

    public record OrderCancelled(UUID orderId, OrderStatus previousStatus, List<Line> lines,
                                 OffsetDateTime cancelledAt) {
        public static final String TYPE = "OrderCancelled";

        public static OrderCancelled of(Order order, OrderStatus previousStatus) {
            List<Line> lines = order.getLines().stream()
                    .map(line -> new Line(line.getSku(), line.getQuantity(), line.getUnitPrice()))
                    .toList();
            return new OrderCancelled(order.getId(), previousStatus, lines, order.getUpdatedAt());
        }
    }
}

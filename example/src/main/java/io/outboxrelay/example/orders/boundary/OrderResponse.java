package io.outboxrelay.example.orders.boundary;

import io.outboxrelay.example.orders.entity.Order;
import io.outboxrelay.example.orders.entity.OrderStatus;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** An order as the API shows it. */
public record OrderResponse(UUID orderId, String customerId, OrderStatus status, BigDecimal total,
                            List<Line> lines, OffsetDateTime createdAt, OffsetDateTime updatedAt) {

    public record Line(String sku, int quantity, BigDecimal unitPrice) {
    }

    static OrderResponse of(Order order) {
        List<Line> lines = order.getLines().stream()
                .map(line -> new Line(line.getSku(), line.getQuantity(), line.getUnitPrice()))
                .toList();
        return new OrderResponse(order.getId(), order.getCustomerId(), order.getStatus(), order.getTotal(),
                lines, order.getCreatedAt(), order.getUpdatedAt());
    }
}

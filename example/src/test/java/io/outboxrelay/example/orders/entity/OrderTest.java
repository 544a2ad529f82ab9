package io.outboxrelay.example.orders.entity;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderTest {

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 30, 10, 0, 0, 0, ZoneOffset.UTC);

    private final Order order = new Order(UUID.randomUUID(), "c-1",
            List.of(new OrderLine("SKU-1", 2, new BigDecimal("9.95")), new OrderLine("SKU-2", 1, new BigDecimal("0.10"))),
            T0);

    @Test
    void aNewOrderIsCreatedWithItsTotal() {
        assertThat(order.getStatus()).isEqualTo(OrderStatus.CREATED);
        assertThat(order.getTotal()).isEqualByComparingTo("20.00");
    }

    @Test
    void anOrderWithoutLinesIsRefused() {
        assertThatThrownBy(() -> new Order(UUID.randomUUID(), "c-1", List.of(), T0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCreatedOrderCanBePaidOnceAndThenCancelled() {
        order.pay(T0.plusMinutes(1));
        assertThat(order.getStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(order.getUpdatedAt()).isEqualTo(T0.plusMinutes(1));

        assertThatThrownBy(() -> order.pay(T0.plusMinutes(2)))
                .isInstanceOf(IllegalOrderTransitionException.class)
                .hasMessageContaining("is PAID");

        order.cancel(T0.plusMinutes(3));
        assertThat(order.getStatus()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aCancelledOrderCanNeitherBePaidNorCancelledAgain() {
        order.cancel(T0.plusMinutes(1));

        assertThatThrownBy(() -> order.pay(T0.plusMinutes(2))).isInstanceOf(IllegalOrderTransitionException.class);
        assertThatThrownBy(() -> order.cancel(T0.plusMinutes(2))).isInstanceOf(IllegalOrderTransitionException.class);
        assertThat(order.getStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(order.getUpdatedAt()).isEqualTo(T0.plusMinutes(1));
    }
}

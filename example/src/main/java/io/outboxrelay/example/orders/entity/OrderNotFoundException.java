package io.outboxrelay.example.orders.entity;

import java.util.UUID;

public class OrderNotFoundException extends RuntimeException {

    public OrderNotFoundException(UUID orderId) {
        super("No order with id " + orderId);
    }
}

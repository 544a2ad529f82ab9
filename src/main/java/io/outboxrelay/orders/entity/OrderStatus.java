package io.outboxrelay.orders.entity;

public enum OrderStatus {
    CREATED, PAID, CANCELLED
}

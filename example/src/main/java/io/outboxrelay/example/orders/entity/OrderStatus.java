package io.outboxrelay.example.orders.entity;

public enum OrderStatus {
    CREATED, PAID, CANCELLED
}

package io.outboxrelay.relay.entity;

/** Fired by the relay after it recorded a batch as SENT: how many events Kafka acknowledged. */
public record EventsPublished(int count) {
}

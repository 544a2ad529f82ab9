package io.outboxrelay.console.consumers.entity;

import java.util.UUID;

/** Which consumer dead letters: every field optional (null matches all); {@code status} one of the row's states. */
public record ConsumerDeadLetterFilter(String consumerGroup, String topic, String errorClass, UUID eventId, String status) {

    public static final ConsumerDeadLetterFilter ALL = new ConsumerDeadLetterFilter(null, null, null, null, null);

    public ConsumerDeadLetterFilter withStatus(String newStatus) {
        return new ConsumerDeadLetterFilter(consumerGroup, topic, errorClass, eventId, newStatus);
    }
}

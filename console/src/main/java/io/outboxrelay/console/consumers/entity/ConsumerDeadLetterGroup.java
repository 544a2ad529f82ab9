package io.outboxrelay.console.consumers.entity;

import java.time.OffsetDateTime;

/** One triage group of consumer dead letters waiting for an operator: same consumer group, topic and error class. */
public record ConsumerDeadLetterGroup(String consumerGroup, String topic, String errorClass, long deadLetters,
                                      OffsetDateTime firstFailedAt, OffsetDateTime lastFailedAt) {
}

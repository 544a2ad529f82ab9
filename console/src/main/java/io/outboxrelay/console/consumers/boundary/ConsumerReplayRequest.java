package io.outboxrelay.console.consumers.boundary;

/**
 * The body of {@code POST /outbox/api/consumer-dead-letters/replay}: which dead letters (every field optional)
 * and dryRun. Without consumerGroup, each matching record goes back to its own group.
 */
public record ConsumerReplayRequest(String consumerGroup, String topic, String errorClass, String eventId, Boolean dryRun) {
}

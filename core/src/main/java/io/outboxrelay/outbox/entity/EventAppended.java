package io.outboxrelay.outbox.entity;

import java.util.UUID;

/**
 * Fired for every append; observers with {@code during = AFTER_SUCCESS} hear of it once the
 * appending transaction has committed (the relay uses that to publish at once, not at its next poll).
 */
public record EventAppended(UUID eventId, String topic) {
}

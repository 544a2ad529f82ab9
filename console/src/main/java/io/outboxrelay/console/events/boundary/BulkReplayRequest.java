package io.outboxrelay.console.events.boundary;

import java.util.List;

/** The body of {@code POST /outbox/api/events/replay}: the search fields (statuses limited to DLT and DEAD) and dryRun. */
public record BulkReplayRequest(String eventId, String aggregateType, String aggregateId, String eventType,
                                List<String> status, String from, String to, Boolean dryRun) {
}

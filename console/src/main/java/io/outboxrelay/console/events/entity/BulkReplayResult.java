package io.outboxrelay.console.events.entity;

import java.time.OffsetDateTime;

/** A bulk replay's answer; a dry run only counts ({@code replayed} is 0 then). */
public record BulkReplayResult(boolean dryRun, int matched, int replayed, OffsetDateTime cutoff) {
}

package io.outboxrelay.console.consumers.entity;

import java.time.OffsetDateTime;

/** A bulk consumer replay's answer; a dry run only counts ({@code requested} is 0 then). */
public record ConsumerReplayResult(boolean dryRun, int matched, int requested, OffsetDateTime cutoff) {
}

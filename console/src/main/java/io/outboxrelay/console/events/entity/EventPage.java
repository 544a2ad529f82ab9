package io.outboxrelay.console.events.entity;

import java.util.List;

/** A page of results, newest first; {@code nextCursor} fetches the next (older) page, null at the end. */
public record EventPage(List<EventSummary> events, String nextCursor) {
}

package io.outboxrelay.console.events.entity;

import java.time.OffsetDateTime;

/** One step of an event's story: when, what ({@code APPENDED}, {@code PUBLISHED}, {@code CONSUMED}, ...), by whom, and details. */
public record TimelineEntry(OffsetDateTime at, String what, String who, String detail) {
}

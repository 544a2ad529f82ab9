package io.outboxrelay.console.consumers.entity;

import java.util.List;

/** A page of consumer dead letters, newest first; {@code nextCursor} fetches the next (older) page, null at the end. */
public record ConsumerDeadLetterPage(List<ConsumerDeadLetter> deadLetters, String nextCursor) {
}

package io.outboxrelay.console.consumers.entity;

import jakarta.json.JsonValue;

/** A consumer dead letter with the record itself (key, value as it came, headers) and the error's stack trace. */
public record ConsumerDeadLetterDetail(ConsumerDeadLetter deadLetter, String key, String payload, JsonValue headers,
                                       String errorStack) {
}

package io.outboxrelay.time;

import jakarta.inject.Qualifier;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The {@link java.time.Clock} Outbox Relay reads time from. Qualified, so that an application with a
 * {@code Clock} producer of its own keeps it and gets no ambiguous dependency from the core.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE})
public @interface OutboxClock {
}

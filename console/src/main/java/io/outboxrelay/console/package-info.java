/**
 * The operator console (Faces, PrimeFaces) at {@code /outbox/console}: search, one event, dead letters
 * grouped for triage, lag charts, the replay audit. Its pages live in {@code admin-ui/}; its
 * backing beans read through the events feature and replay through its boundary.
 */
package io.outboxrelay.console;

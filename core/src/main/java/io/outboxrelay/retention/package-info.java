/**
 * Retention: published outbox rows and old dedup-log rows are deleted in small batches on a
 * schedule; dead letters (DLT, DEAD) stay unless a separate, longer retention is switched on.
 */
package io.outboxrelay.retention;

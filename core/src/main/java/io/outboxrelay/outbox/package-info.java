/**
 * The write side of the outbox: {@link io.outboxrelay.outbox.boundary.Outbox#append} stores an
 * event as a row in the caller's JTA transaction, so the event exists exactly when the business
 * change does.
 */
package io.outboxrelay.outbox;

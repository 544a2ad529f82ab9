/**
 * The sample domain: orders that are created, paid and cancelled. Each use case changes the
 * order and appends its event to the outbox in one transaction.
 */
package io.outboxrelay.example.orders;

/**
 * Outbox Relay: a transactional outbox for Jakarta EE. Packages are cut by feature
 * ({@code orders}, {@code outbox}, ...), each split into {@code boundary} (transactions,
 * REST), {@code control} (logic without transactions of its own) and {@code entity}.
 */
package io.outboxrelay;

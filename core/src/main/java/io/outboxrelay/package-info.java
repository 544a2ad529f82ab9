/**
 * Outbox Relay's core, the part an application adds: a transactional outbox for Jakarta EE. Packages
 * are cut by feature ({@code outbox}, {@code relay}, {@code consumer}, ...), each split into
 * {@code boundary} (what other features and applications use), {@code control} (the feature's own
 * logic) and {@code entity}. The console ({@code io.outboxrelay.console}) and the example
 * ({@code io.outboxrelay.example}) build on it; it knows neither.
 */
package io.outboxrelay;

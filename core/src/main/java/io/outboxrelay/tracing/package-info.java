/**
 * Carries a request's correlation id and trace context from the HTTP request into the headers of
 * the events it produces, and, when the server runs OpenTelemetry, makes the relay's send and the
 * consumers' process spans that continue it.
 */
package io.outboxrelay.tracing;

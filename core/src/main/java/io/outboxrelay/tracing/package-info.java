/**
 * Carries a request's correlation id and W3C trace context from the HTTP request into the
 * headers of the events it produces.
 */
package io.outboxrelay.tracing;

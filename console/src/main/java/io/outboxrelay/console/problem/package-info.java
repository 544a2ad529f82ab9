/**
 * Turns every failure of a REST call into an {@code application/problem+json} answer (RFC 9457)
 * with the right status, and never lets a stack trace, class name or SQL reach the client.
 */
package io.outboxrelay.console.problem;

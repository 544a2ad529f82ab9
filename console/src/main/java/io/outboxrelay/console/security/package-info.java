/**
 * What keeps a browser that is signed in to the console from being used against it: the operator API's
 * writes refuse anything another site's page could send, and every console and API answer carries headers
 * that forbid framing, sniffing and leaking its addresses.
 */
package io.outboxrelay.console.security;

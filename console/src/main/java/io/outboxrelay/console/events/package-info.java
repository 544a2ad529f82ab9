/**
 * What operators do with events: find them (by event id, aggregate, type, status, time), read
 * everything about one, replay dead letters (audited), and watch the lag.
 */
package io.outboxrelay.console.events;

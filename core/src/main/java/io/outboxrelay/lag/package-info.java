/**
 * How far behind publishing and consuming are: rows per status, the oldest pending event's age, the
 * publish rate and every consumer group's lag, taken as a snapshot on a schedule for the meters, the
 * operator API and the console.
 */
package io.outboxrelay.lag;

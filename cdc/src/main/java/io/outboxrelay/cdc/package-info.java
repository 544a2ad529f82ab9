/**
 * CDC mode ({@code outbox.publisher=cdc}): Debezium's embedded engine reads the outbox table's inserts from
 * PostgreSQL's write-ahead log (pgoutput, a publication of the outbox table only, a named replication slot), and
 * the core's relay publishes exactly those events, as it would have polled them: the same records, the same
 * outcomes (SENT with partition and offset, retries, dead letters), the same console. The polling relay keeps
 * running as the safety net for what the stream hands over (retries, replays, events it never saw).
 */
package io.outboxrelay.cdc;

/**
 * Outbox Relay's own meters (Micrometer), in Prometheus text format at {@code /outbox/prometheus}. The
 * relay, the consumers and the retention job report what happened as CDI events; this feature
 * turns those into meters. Figures that need the database or Kafka come from the lag snapshot,
 * never from a query per scrape.
 */
package io.outboxrelay.metrics;

/**
 * A host application of its own, not the orders sample: payments written with plain JDBC, its own schema and
 * Flyway history, its own REST API with an empty {@code Application} (every resource of the WAR), and a ledger
 * that books each payment once through {@code ReliableConsumer}. It depends on nothing of Outbox Relay but the
 * core jar. The adoption tests package it as a WAR and deploy it on a Liberty server of its own.
 */
package io.outboxrelay.adoption.payments;

/**
 * The consumer side for operators: the records each consumer group gave up on (consumer dead letters),
 * grouped for triage, and their replay to that group alone (audited).
 */
package io.outboxrelay.console.consumers;

/**
 * Demo traffic for a first look at the console ({@code ./run --demo}): a gentle stream of sample
 * orders, now and then a cancellation and a poison event. Off unless {@code outbox.demo.enabled}.
 */
package io.outboxrelay.example.demo;

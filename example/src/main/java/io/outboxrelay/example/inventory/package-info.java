/**
 * Sample consumer: reserves stock when an order is created and releases it when the order is
 * cancelled. Applying an event twice would reserve twice; the idempotent consumer prevents it.
 */
package io.outboxrelay.example.inventory;

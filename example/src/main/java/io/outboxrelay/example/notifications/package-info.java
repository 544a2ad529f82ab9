/** Sample consumer: records one notification per order event. */
package io.outboxrelay.example.notifications;

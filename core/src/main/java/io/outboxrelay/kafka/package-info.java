/** Connection to the Kafka cluster shared by the server's parts. */
package io.outboxrelay.kafka;

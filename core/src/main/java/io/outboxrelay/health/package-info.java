/** MicroProfile Health checks: the server is ready when its database and Kafka answer. */
package io.outboxrelay.health;

package io.outboxrelay.lag.entity;

import java.time.Instant;
import java.util.Map;

/**
 * One point of the lag history: when it was taken, the oldest pending event's age, this server's publish rate,
 * and each consumer group's total lag over its topics and partitions ({@code group · topic} → records).
 */
public record LagSample(Instant takenAt, double oldestPendingAgeSeconds, double publishRatePerSecond,
                        Map<String, Long> consumerLag) {
}

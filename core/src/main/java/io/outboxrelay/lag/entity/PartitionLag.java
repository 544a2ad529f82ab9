package io.outboxrelay.lag.entity;

/**
 * One consumer group's position on one partition: committed offset, end offset, the records between, and how
 * long ago the oldest of those was written (0 when the group is caught up or that record could not be read).
 */
public record PartitionLag(String group, String topic, int partition, long committed, long end, long lag,
                           double oldestUnconsumedAgeSeconds) {
}

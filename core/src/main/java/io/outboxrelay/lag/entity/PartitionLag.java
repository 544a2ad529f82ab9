package io.outboxrelay.lag.entity;

/** One consumer group's position on one partition: committed offset, end offset, and the records between. */
public record PartitionLag(String group, String topic, int partition, long committed, long end, long lag) {
}

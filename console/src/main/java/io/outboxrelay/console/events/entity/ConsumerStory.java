package io.outboxrelay.console.events.entity;

import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * What one consumer group did with an event: when it handled it and from which record ({@code processedAt}
 * null if it has not), how many more deliveries it skipped as duplicates, its dead letters if it gave a record
 * of the event up (each one's state tells whether a replay was asked for or done), and whether its committed
 * offset in Kafka is past the event's record ({@code pastInKafka}, from the latest lag snapshot; null when
 * not known). A group that reads the topic without this product's consumer shows only the latter.
 */
public record ConsumerStory(String consumerGroup, OffsetDateTime processedAt, String topic, Integer partition, Long offset,
                            int duplicates, OffsetDateTime lastDuplicateAt, List<ConsumerDeadLetter> deadLetters,
                            Boolean pastInKafka) {
}

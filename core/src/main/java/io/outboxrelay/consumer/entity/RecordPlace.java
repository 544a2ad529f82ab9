package io.outboxrelay.consumer.entity;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Where a record lay in Kafka: its topic, partition and offset. */
public record RecordPlace(String topic, int partition, long offset) {

    public static RecordPlace of(ConsumerRecord<?, ?> record) {
        return new RecordPlace(record.topic(), record.partition(), record.offset());
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}

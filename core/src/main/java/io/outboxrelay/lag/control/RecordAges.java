package io.outboxrelay.lag.control;

import io.outboxrelay.kafka.boundary.KafkaSettings;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When the oldest record a consumer group has not consumed yet was written: the timestamp of the record at
 * the group's committed offset, read by a consumer of its own that joins no group and commits nothing. One
 * small fetch per lagging partition and committed offset, at most {@value #MAX_PARTITIONS} and 5 seconds per look.
 */
@ApplicationScoped
public class RecordAges {

    static final int MAX_PARTITIONS = 200;
    private static final Duration POLL = Duration.ofSeconds(2);
    /** A look gives up after this long in all, so a slow cluster cannot hold the lag snapshot up. */
    private static final Duration LOOK = Duration.ofSeconds(5);

    @Inject
    KafkaSettings kafka;

    private KafkaConsumer<byte[], byte[]> consumer;

    /** A record's place: partition and offset. */
    public record Place(TopicPartition partition, long offset) {
    }

    /** The write time of the record at each place; one that could not be read (gone, or no timestamp) is left out. */
    public synchronized Map<Place, Instant> writtenAt(Collection<Place> places) {
        Map<Place, Instant> written = new HashMap<>();
        long deadline = System.nanoTime() + LOOK.toNanos();
        for (Place place : places.stream().limit(MAX_PARTITIONS).toList()) {
            if (System.nanoTime() > deadline) {
                break; // the rest show no age this time
            }
            consumer().assign(List.of(place.partition()));
            consumer().seek(place.partition(), place.offset());
            List<ConsumerRecord<byte[], byte[]>> records = consumer().poll(POLL).records(place.partition());
            if (!records.isEmpty() && records.get(0).timestamp() >= 0) {
                written.put(place, Instant.ofEpochMilli(records.get(0).timestamp()));
            }
        }
        return written;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            Map<String, Object> properties = kafka.clientProperties("lag");
            properties.put("enable.auto.commit", false);
            properties.put("max.poll.records", 1);
            properties.put("fetch.max.bytes", 1_048_576);
            properties.put("max.partition.fetch.bytes", 1_048_576);
            properties.put("isolation.level", "read_committed");
            consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        return consumer;
    }

    @PreDestroy
    synchronized void close() {
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
        }
    }
}

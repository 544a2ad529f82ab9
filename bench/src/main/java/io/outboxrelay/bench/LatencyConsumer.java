package io.outboxrelay.bench;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Reads a topic from its current end (every partition, no consumer group) and notes when each
 * event of one step arrives: the consuming side of the steady latency figure.
 */
final class LatencyConsumer implements AutoCloseable {

    private final AtomicLongArray arrivals;
    private final AtomicInteger arrived = new AtomicInteger();
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private volatile boolean closed;

    LatencyConsumer(Env env, Steady steady, long first, int count) {
        arrivals = new AtomicLongArray(count);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", env.bootstrap(),
                "enable.auto.commit", "false", "fetch.max.wait.ms", "10", "fetch.min.bytes", "1"),
                new StringDeserializer(), new StringDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(steady.topic(), Duration.ofSeconds(60)).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // the end is fixed now, before the first write
        thread.execute(() -> {
            try (consumer) {
                while (!closed) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(50))) {
                        long index = steady.sequenceOf(record.value()) - first;
                        if (index >= 0 && index < count && arrivals.compareAndSet((int) index, 0, System.nanoTime())) {
                            arrived.incrementAndGet();
                        }
                    }
                }
            }
        });
    }

    int arrived() {
        return arrived.get();
    }

    /** Arrival times ({@link System#nanoTime()}) by index, 0 = not arrived. */
    AtomicLongArray arrivals() {
        return arrivals;
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.shutdown();
        thread.awaitTermination(30, TimeUnit.SECONDS);
    }
}

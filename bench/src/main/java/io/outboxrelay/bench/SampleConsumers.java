package io.outboxrelay.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The server's two sample consumer groups on {@code order.events}: how many events they are
 * behind (end offsets minus committed offsets, summed over partitions and groups). A benchmark
 * figure that creates orders leaves them behind; what they still owe runs on the same cores and
 * would slow whatever is measured next, so the harness waits for them.
 */
final class SampleConsumers {

    static final List<String> GROUPS = List.of("inventory", "notifications");

    private SampleConsumers() {
    }

    /** Events the sample consumers have not yet committed, over both groups (0 before any order exists). */
    static long behind(Env env) throws Exception {
        try (Admin admin = env.admin()) {
            return behind(admin);
        }
    }

    private static long behind(Admin admin) throws Exception {
        List<TopicPartition> partitions;
        try {
            partitions = admin.describeTopics(List.of(OrdersApiWriter.ORDER_TOPIC)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(OrdersApiWriter.ORDER_TOPIC).partitions().stream()
                    .map(info -> new TopicPartition(OrdersApiWriter.ORDER_TOPIC, info.partition())).toList();
        } catch (ExecutionException noTopic) {
            if (noTopic.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw noTopic;
        }
        Map<TopicPartition, Long> ends = admin.listOffsets(partitions.stream()
                        .collect(Collectors.toMap(Function.identity(), partition -> OffsetSpec.latest())))
                .all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, end -> end.getValue().offset()));
        long behind = 0;
        for (String group : GROUPS) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = committed.get(partition);
                behind += ends.get(partition) - (offset == null ? 0 : offset.offset());
            }
        }
        return behind;
    }

    /** Waits until both groups have committed every event on the topic; returns the seconds that took. */
    static double awaitCaughtUp(Env env, Duration patience) {
        long start = System.nanoTime();
        try (Admin admin = env.admin()) { // one client for all the looks
            Env.await("the sample consumers to catch up on " + OrdersApiWriter.ORDER_TOPIC, patience, Duration.ofMillis(500),
                    () -> behind(admin) == 0);
        }
        return (System.nanoTime() - start) / 1e9;
    }
}

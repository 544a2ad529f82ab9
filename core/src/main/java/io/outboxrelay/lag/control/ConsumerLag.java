package io.outboxrelay.lag.control;

import io.outboxrelay.kafka.boundary.KafkaAdmin;
import io.outboxrelay.lag.entity.PartitionLag;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** How far each consumer group is behind: end offset minus committed offset, per topic and partition. */
@ApplicationScoped
public class ConsumerLag {

    private static final long TIMEOUT_SECONDS = 5;

    @Inject
    KafkaAdmin kafkaAdmin;

    public List<PartitionLag> all() throws Exception {
        List<PartitionLag> lags = new ArrayList<>();
        for (ConsumerGroupListing group : admin().listConsumerGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin().listConsumerGroupOffsets(group.groupId())
                    .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin().listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            committed.forEach((partition, offset) -> {
                if (offset != null && ends.containsKey(partition)) {
                    long end = ends.get(partition).offset();
                    lags.add(new PartitionLag(group.groupId(), partition.topic(), partition.partition(),
                            offset.offset(), end, Math.max(0, end - offset.offset())));
                }
            });
        }
        lags.sort(Comparator.comparing(PartitionLag::group).thenComparing(PartitionLag::topic)
                .thenComparingInt(PartitionLag::partition));
        return lags;
    }

    private Admin admin() {
        return kafkaAdmin.admin();
    }
}

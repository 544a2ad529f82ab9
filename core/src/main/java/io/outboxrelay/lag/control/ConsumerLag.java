package io.outboxrelay.lag.control;

import io.outboxrelay.kafka.boundary.KafkaAdmin;
import io.outboxrelay.lag.entity.PartitionLag;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How far each consumer group is behind, per topic and partition: end offset minus committed offset, and how
 * long ago the oldest record it has not consumed was written.
 */
@ApplicationScoped
public class ConsumerLag {

    private static final long TIMEOUT_SECONDS = 5;

    @Inject
    KafkaAdmin kafkaAdmin;

    @Inject
    RecordAges recordAges;

    @Inject
    @OutboxClock
    Clock clock;

    public List<PartitionLag> all() throws Exception {
        record Position(String group, TopicPartition partition, long committed, long end) {
        }
        List<Position> positions = new ArrayList<>();
        for (ConsumerGroupListing group : admin().listConsumerGroups().all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin().listConsumerGroupOffsets(group.groupId())
                    .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                    admin().listOffsets(latest).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            committed.forEach((partition, offset) -> {
                if (offset != null && ends.containsKey(partition)) {
                    positions.add(new Position(group.groupId(), partition, offset.offset(), ends.get(partition).offset()));
                }
            });
        }
        // a lagging group's oldest unconsumed record is the one at its committed offset (groups at one offset share it)
        Set<RecordAges.Place> unconsumed = new LinkedHashSet<>();
        positions.stream().filter(position -> position.end() > position.committed())
                .forEach(position -> unconsumed.add(new RecordAges.Place(position.partition(), position.committed())));
        Map<RecordAges.Place, Instant> writtenAt = unconsumed.isEmpty() ? Map.of() : recordAges.writtenAt(unconsumed);
        Instant now = clock.instant();
        List<PartitionLag> lags = new ArrayList<>();
        for (Position position : positions) {
            long lag = Math.max(0, position.end() - position.committed());
            Instant oldest = lag == 0 ? null : writtenAt.get(new RecordAges.Place(position.partition(), position.committed()));
            lags.add(new PartitionLag(position.group(), position.partition().topic(), position.partition().partition(),
                    position.committed(), position.end(), lag,
                    oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toMillis() / 1000.0)));
        }
        lags.sort(Comparator.comparing(PartitionLag::group).thenComparing(PartitionLag::topic)
                .thenComparingInt(PartitionLag::partition));
        return lags;
    }

    private Admin admin() {
        return kafkaAdmin.admin();
    }
}

package io.outboxrelay.faults;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 5: a three-broker cluster (replication 3, min.insync.replicas 2); the leader of a
 * partition of the order topic is killed with SIGKILL under load and started again later.
 * acks=all with an idempotent producer must lose nothing and dead-letter nothing.
 */
final class ClusterFailover {

    static Result run(Suite suite) throws Exception {
        Result result = new Result("5 Kafka cluster: partition leader killed");
        if (suite.stack.kafkaNodes() < 3) {
            return result.skip("the stack has " + suite.stack.kafkaNodes() + " Kafka node(s); start it with --kafka-nodes 3");
        }
        String tag = suite.tag("failover");
        Server server = suite.primary();
        int orders = suite.mode.orders;
        try (OrderLoad load = OrderLoad.start(tag, List.of(server), orders, suite.mode.ratePerSecond);
             Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", suite.stack.bootstrap()))) {
            load.awaitAccepted(orders / 3, suite.writePatience(orders));
            TopicPartitionInfo partition = partition0(admin);
            int leader = partition.leader().id();
            result.fact("topic", Ledger.TOPIC + ": replication " + partition.replicas().size() + ", in sync "
                    + partition.isr().size() + " before the kill");
            result.expect(partition.replicas().size() == 3, "the order topic is not replicated three times");
            suite.stack.killKafkaNode(leader);
            long killedAt = System.nanoTime();
            Waits.until("a new leader for partition 0", Duration.ofMinutes(2), Duration.ofMillis(200),
                    () -> partition0(admin).leader() != null && partition0(admin).leader().id() != leader);
            result.fact("failover", String.format("node %d (leader of partition 0) killed; node %d leads %.1f s later",
                    leader, partition0(admin).leader().id(), (System.nanoTime() - killedAt) / 1e9));
            load.awaitAccepted(orders * 2 / 3, suite.writePatience(orders));
            suite.stack.startKafkaNode(leader);
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
            Waits.until("node " + leader + " back in sync", Duration.ofMinutes(3), Duration.ofMillis(500),
                    () -> partition0(admin).isr().size() == 3);
            result.fact("rejoined", "node " + leader + " restarted and back in sync");
        }
        return result;
    }

    private static TopicPartitionInfo partition0(Admin admin) throws Exception {
        TopicDescription topic = admin.describeTopics(List.of(Ledger.TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(Ledger.TOPIC);
        return topic.partitions().get(0);
    }

    private ClusterFailover() {
    }
}

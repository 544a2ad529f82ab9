package io.outboxrelay.devstack;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * When a Kafka node counts as ready: it is a broker of the cluster, the cluster acknowledges a record
 * produced with acks=all to a topic that every node replicates, and this node is one of that topic's
 * in-sync replicas. An open port is not enough.
 */
final class KafkaReadiness {

    static final String TOPIC = "devstack-readiness";

    private KafkaReadiness() {
    }

    /** One check of the node {@code nodeId} at {@code address}; throws while it is not ready. */
    static void check(String address, int nodeId, int clusterSize, int minInsyncReplicas) throws Exception {
        try (Admin admin = Admin.create(clientConfig(address, Map.of(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000")))) {
            if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).stream().noneMatch(node -> node.id() == nodeId)) {
                throw new IllegalStateException("node " + nodeId + " is not a broker of the cluster yet");
            }
            createTopic(admin, clusterSize, minInsyncReplicas);
            produce(address);
            TopicPartitionInfo partition = admin.describeTopics(List.of(TOPIC)).allTopicNames()
                    .get(5, TimeUnit.SECONDS).get(TOPIC).partitions().get(0);
            if (partition.isr().stream().noneMatch(node -> node.id() == nodeId)) {
                throw new IllegalStateException("node " + nodeId + " is not in sync on " + TOPIC + " yet");
            }
        }
    }

    /** Created explicitly, on every node, because auto-creation may be switched off. */
    private static void createTopic(Admin admin, int clusterSize, int minInsyncReplicas) throws Exception {
        NewTopic topic = new NewTopic(TOPIC, 1, (short) clusterSize);
        if (clusterSize > 1) {
            topic.configs(Map.of("min.insync.replicas", Integer.toString(minInsyncReplicas)));
        }
        try {
            admin.createTopics(List.of(topic)).all().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private static void produce(String address) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(clientConfig(address, Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "8000")),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, "ready")).get(10, TimeUnit.SECONDS);
        }
    }

    private static Properties clientConfig(String address, Map<String, String> specific) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, address);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "devstack-readiness");
        config.putAll(specific);
        return config;
    }
}

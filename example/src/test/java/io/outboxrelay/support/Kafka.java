package io.outboxrelay.support;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** The real Kafka cluster the server publishes to, seen as a consumer and an administrator would see it. */
public final class Kafka {

    public static final String BOOTSTRAP = System.getProperty("it.kafka.bootstrap", "127.0.0.1:59092");

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private Kafka() {
    }

    /** A topic name no other test uses. */
    public static String uniqueTopic(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    public static void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Creates a topic with topic configs (e.g. {@code max.message.bytes}) and waits until every partition has a leader. */
    public static void createTopic(String name, int partitions, Map<String, String> configs) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs)))
                    .all().get(60, TimeUnit.SECONDS);
            Awaitility.await("topic " + name + " to be created")
                    .atMost(DEADLINE)
                    .ignoreExceptions()
                    .until(() -> {
                        TopicDescription topic = admin.describeTopics(List.of(name)).allTopicNames()
                                .get(10, TimeUnit.SECONDS).get(name);
                        return topic.partitions().size() == partitions
                                && topic.partitions().stream().allMatch(partition -> partition.leader() != null);
                    });
        } catch (Exception e) {
            throw new IllegalStateException("could not create topic " + name, e);
        }
    }

    /** Sets one config of an existing topic, as an operator would (e.g. a larger {@code max.message.bytes}). */
    public static void setTopicConfig(String topic, String key, String value) {
        try (Admin admin = admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                    .all().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not set " + key + " of topic " + topic, e);
        }
    }

    /** Creates the topic unless the cluster has it already (a topic named by a product, not by one test). */
    public static void createTopicIfAbsent(String name, int partitions) {
        try (Admin admin = admin()) {
            if (admin.listTopics().names().get(60, TimeUnit.SECONDS).contains(name)) {
                return;
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not list the topics", e);
        }
        createTopic(name, partitions);
    }

    /** Every record the topic holds right now, from the beginning to the end of each partition, in (partition, offset) order. */
    public static List<ConsumerRecord<String, String>> readAll(String topic) {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            List<TopicPartition> partitions = assignFromBeginning(consumer, topic);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            return pollUntil(consumer, topic, "the end of every partition",
                    records -> partitions.stream().allMatch(partition -> consumer.position(partition) >= ends.get(partition)));
        }
    }

    /** Consumes the topic from the beginning until the records consumed so far satisfy the condition. */
    public static List<ConsumerRecord<String, String>> consumeUntil(String topic, String what,
                                                                    Predicate<List<ConsumerRecord<String, String>>> condition) {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            assignFromBeginning(consumer, topic);
            return pollUntil(consumer, topic, what, condition);
        }
    }

    /** A header's value as UTF-8 text (the last one when repeated), or null when the record has no such header. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<String, String>> pollUntil(KafkaConsumer<String, String> consumer, String topic,
                                                                  String what,
                                                                  Predicate<List<ConsumerRecord<String, String>>> condition) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!condition.test(records)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("gave up waiting for " + what + " on topic " + topic + " after " + DEADLINE
                        + "; consumed " + records.size() + " records");
            }
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        records.sort(Comparator.<ConsumerRecord<String, String>>comparingInt(ConsumerRecord::partition)
                .thenComparingLong(ConsumerRecord::offset));
        return records;
    }

    private static List<TopicPartition> assignFromBeginning(KafkaConsumer<String, String> consumer, String topic) {
        List<TopicPartition> partitions;
        try (Admin admin = admin()) {
            partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(60, TimeUnit.SECONDS).get(topic)
                    .partitions().stream()
                    .map(partition -> new TopicPartition(topic, partition.partition()))
                    .toList();
        } catch (Exception e) {
            throw new IllegalStateException("could not describe topic " + topic, e);
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    private static Admin admin() {
        return Admin.create(Map.of("bootstrap.servers", BOOTSTRAP));
    }

    private static KafkaConsumer<String, String> consumer() {
        return new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, BOOTSTRAP,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer());
    }

    /** Produces one record (acks=all) and returns where it landed, as any producer on the cluster could. */
    public static org.apache.kafka.clients.producer.RecordMetadata produce(String topic, String key, String value,
                                                                           Map<String, String> headers) {
        return produce(topic, null, key, value, headers);
    }

    /** Produces one record to the given partition ({@code null}: the key decides). */
    public static org.apache.kafka.clients.producer.RecordMetadata produce(String topic, Integer partition, String key,
                                                                           String value, Map<String, String> headers) {
        try (org.apache.kafka.clients.producer.KafkaProducer<String, String> producer =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(Map.of("bootstrap.servers", BOOTSTRAP, "acks", "all"),
                             new org.apache.kafka.common.serialization.StringSerializer(),
                             new org.apache.kafka.common.serialization.StringSerializer())) {
            var record = new org.apache.kafka.clients.producer.ProducerRecord<>(topic, partition, key, value);
            headers.forEach((name, text) -> record.headers().add(name, text.getBytes(StandardCharsets.UTF_8)));
            return producer.send(record).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not produce to " + topic, e);
        }
    }

    /** Waits until {@code group} has committed past {@code offset} of that partition: it has handled the record. */
    public static void awaitCommittedPast(String group, String topic, int partition, long offset) {
        TopicPartition topicPartition = new TopicPartition(topic, partition);
        try (Admin admin = admin()) {
            Awaitility.await(group + " to commit past " + topicPartition + "@" + offset)
                    .atMost(DEADLINE)
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> {
                        var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                                .get(10, TimeUnit.SECONDS).get(topicPartition);
                        return committed != null && committed.offset() > offset;
                    });
        }
    }
}

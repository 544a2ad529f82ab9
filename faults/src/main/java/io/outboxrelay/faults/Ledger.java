package io.outboxrelay.faults;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts what became of a run's orders, from the two places that matter: the database (orders,
 * outbox rows, the inventory consumer's log and its effect) and the Kafka topic itself.
 * A run is identified by its tag: the orders' customer id and the prefix of their SKUs.
 */
final class Ledger {

    static final String TOPIC = "order.events";
    static final String INVENTORY_GROUP = "inventory";

    private final String dbUrl;
    private final String dbUser;
    private final String dbPassword;
    private final String bootstrap;

    Ledger(String dbUrl, String dbUser, String dbPassword, String bootstrap) {
        this.dbUrl = dbUrl;
        this.dbUser = dbUser;
        this.dbPassword = dbPassword;
        this.bootstrap = bootstrap;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(dbUrl, dbUser, dbPassword);
    }

    /** Waits until every event of the run is SENT, DLT or DEAD and the inventory consumer has handled every SENT one. */
    void awaitSettled(String tag, Duration patience) {
        Waits.until(tag + ": every event published and consumed", patience, Duration.ofMillis(500), () -> {
            Counts counts = database(tag);
            return counts.pending() == 0 && counts.consumed() == counts.sent();
        });
    }

    /** The database's side of a run. */
    Counts database(String tag) throws SQLException {
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement("""
                WITH run_orders AS (SELECT id::text AS id FROM orders WHERE customer_id = ?),
                     run_events AS (SELECT e.event_id, e.status FROM outbox_event_state e
                                    WHERE e.aggregate_type = 'Order' AND e.aggregate_id IN (SELECT id FROM run_orders))
                SELECT (SELECT count(*) FROM run_orders) AS orders,
                       (SELECT count(*) FROM run_events) AS events,
                       (SELECT count(*) FROM run_events WHERE status IN ('PENDING', 'IN_FLIGHT')) AS pending,
                       (SELECT count(*) FROM run_events WHERE status = 'SENT') AS sent,
                       (SELECT count(*) FROM run_events WHERE status = 'DLT') AS dlt,
                       (SELECT count(*) FROM run_events WHERE status = 'DEAD') AS dead,
                       (SELECT count(*) FROM run_orders o WHERE NOT EXISTS
                            (SELECT 1 FROM outbox_event e WHERE e.aggregate_type = 'Order' AND e.aggregate_id = o.id)) AS without_event,
                       (SELECT count(*) FROM run_orders o WHERE NOT EXISTS
                            (SELECT 1 FROM order_line l WHERE l.order_id::text = o.id)) AS without_lines,
                       (SELECT count(*) FROM consumed_event c JOIN run_events r ON r.event_id = c.event_id
                            WHERE c.consumer_group = ?) AS consumed,
                       (SELECT coalesce(sum(reserved), 0) FROM inventory_stock WHERE sku LIKE ? || '-%') AS effect
                """)) {
            query.setString(1, tag);
            query.setString(2, INVENTORY_GROUP);
            query.setString(3, tag);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return new Counts(row.getLong("orders"), row.getLong("events"), row.getLong("pending"), row.getLong("sent"),
                        row.getLong("dlt"), row.getLong("dead"), row.getLong("without_event") + row.getLong("without_lines"),
                        row.getLong("consumed"), row.getLong("effect"));
            }
        }
    }

    /** Ids of the run's orders that the database has, out of the given ones (a 201 whose order is missing was lost). */
    Set<String> missingOrders(String tag, Set<String> accepted) throws SQLException {
        Set<String> present = new HashSet<>();
        try (Connection connection = connect();
             PreparedStatement query = connection.prepareStatement("SELECT id::text FROM orders WHERE customer_id = ?")) {
            query.setString(1, tag);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    present.add(rows.getString(1));
                }
            }
        }
        Set<String> missing = new HashSet<>(accepted);
        missing.removeAll(present);
        return missing;
    }

    /** The run's SENT event ids by order id, from the outbox. */
    private Map<String, String> sentEvents(String tag) throws SQLException {
        Map<String, String> aggregateByEvent = new HashMap<>();
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement("""
                SELECT e.event_id::text, e.aggregate_id FROM outbox_event_state e
                WHERE e.aggregate_type = 'Order' AND e.status = 'SENT'
                  AND e.aggregate_id IN (SELECT id::text FROM orders WHERE customer_id = ?)""")) {
            query.setString(1, tag);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    aggregateByEvent.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return aggregateByEvent;
    }

    /**
     * Reads the whole topic and compares it with the outbox: how many records of the run's events
     * are on Kafka, how many distinct events, and which SENT events are not there (lost).
     */
    Topic topic(String tag) throws SQLException {
        Map<String, String> sent = sentEvents(tag);
        Set<String> aggregates = new HashSet<>(sent.values());
        Map<String, Integer> copies = new HashMap<>();
        Map<String, Object> config = Map.of("bootstrap.servers", bootstrap, "enable.auto.commit", "false",
                "max.poll.records", "5000");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(TOPIC, Duration.ofSeconds(30)).stream()
                    .map(PartitionInfo::partition).map(p -> new TopicPartition(TOPIC, p)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (!partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(TOPIC + " could not be read to its end within 5 minutes");
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (aggregates.contains(record.key())) {
                        copies.merge(eventId(record), 1, Integer::sum);
                    }
                }
            }
        }
        Set<String> lost = new HashSet<>(sent.keySet());
        lost.removeAll(copies.keySet());
        long records = copies.values().stream().mapToLong(Integer::longValue).sum();
        return new Topic(records, copies.size(), records - copies.size(), lost.size());
    }

    private static String eventId(ConsumerRecord<String, String> record) {
        Header id = record.headers().lastHeader("ce_id");
        return id == null ? "" : new String(id.value(), StandardCharsets.UTF_8);
    }

    /** The database's counts of a run. {@code halfCommitted}: orders without their event or lines. */
    record Counts(long orders, long events, long pending, long sent, long dlt, long dead, long halfCommitted,
                  long consumed, long effect) {
    }

    /** The topic's counts of a run's SENT events. */
    record Topic(long records, long distinct, long duplicates, long lost) {
    }
}

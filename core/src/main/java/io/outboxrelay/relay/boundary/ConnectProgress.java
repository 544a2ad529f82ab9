package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayStore;
import io.outboxrelay.relay.control.RelayStore.Landed;
import io.outboxrelay.time.Backoff;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Connect mode ({@code outbox.publisher=connect}): a Kafka Connect worker publishes the outbox, so the relay learns
 * from the outbox topics themselves what it published. It reads every record of the topics matching
 * {@code outbox.connect.topics} in a consumer group of its own and marks the events they carry ({@code ce_id},
 * else {@code id}) SENT with the partition, offset and time of the record, one statement per poll; the group's
 * offsets are committed only after that statement, so a failure reads the records again. Records of events that are
 * not waiting (published before, by the polling relay or twice by the connector after a crash) change nothing; a
 * record of an event this server cannot see yet is marked again with the next polls for a few seconds.
 * Servers share the group, so each partition is followed by one of them.
 */
final class ConnectProgress implements Runnable {

    private static final Logger LOG = Logger.getLogger(ConnectProgress.class.getName());
    private static final Duration POLL = Duration.ofSeconds(1);
    /** How long a record whose event this server cannot see is marked again (see {@link UnseenEvents}). */
    private static final Duration VISIBILITY_PATIENCE = Duration.ofSeconds(3);
    private static final int MOST_UNSEEN = 10_000;

    private final Supplier<Map<String, Object>> consumerProperties;
    private final Pattern topics;
    private final RelayStore store;
    private final Clock clock;
    private final Runnable beat;
    private final Backoff backoff = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 0.1);
    private final UnseenEvents unseen = new UnseenEvents(VISIBILITY_PATIENCE, MOST_UNSEEN);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean stopping;
    private int failures;

    /** {@code beat} tells the relay's liveness check that this loop runs (each poll, each wait after a failure). */
    ConnectProgress(Supplier<Map<String, Object>> consumerProperties, Pattern topics, RelayStore store, Clock clock,
                    Runnable beat) {
        this.consumerProperties = consumerProperties;
        this.topics = topics;
        this.store = store;
        this.clock = clock;
        this.beat = beat;
    }

    /** The consumer's properties: the server's client settings, then what this consumer needs to be correct. */
    static Map<String, Object> consumerProperties(Map<String, Object> client, String groupId) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("auto.offset.reset", "earliest"); // a new group starts with what the connector wrote first
        properties.put("metadata.max.age.ms", 30_000); // a topic the connector creates is followed within this
        properties.put("max.poll.records", 2_000);
        properties.putAll(client);
        properties.put("group.id", groupId);
        properties.put("enable.auto.commit", false);
        properties.put("isolation.level", "read_committed");
        return properties;
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                try (KafkaConsumer<byte[], byte[]> opened = new KafkaConsumer<>(consumerProperties.get(),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    consumer = opened;
                    if (stopping) {
                        return;
                    }
                    opened.subscribe(topics);
                    follow(opened);
                } catch (WakeupException stop) {
                    return;
                } catch (SQLException | KafkaException | IllegalStateException broken) {
                    failures++;
                    beat.run();
                    if (failures == 1) {
                        LOG.warning(() -> "Connect mode: could not record what the connector published (" + broken
                                + "); reading those records again shortly");
                    }
                    if (awaitStop(backoff.delay(failures, ThreadLocalRandom.current()::nextDouble))) {
                        return;
                    }
                } finally {
                    consumer = null;
                }
            }
        } finally {
            finished.countDown();
        }
    }

    private void follow(KafkaConsumer<byte[], byte[]> opened) throws SQLException {
        while (!stopping) {
            beat.run();
            ConsumerRecords<byte[], byte[]> records = opened.poll(POLL);
            if (records.isEmpty() && unseen.isEmpty()) {
                continue;
            }
            List<Landed> fresh = new ArrayList<>(records.count());
            for (ConsumerRecord<byte[], byte[]> record : records) {
                eventId(record).ifPresent(eventId -> fresh.add(new Landed(eventId, record.partition(), record.offset(),
                        record.timestamp() >= 0 ? Instant.ofEpochMilli(record.timestamp()) : clock.instant())));
            }
            List<Landed> landed = new ArrayList<>(unseen.held());
            landed.addAll(fresh);
            Set<UUID> absent = store.markLanded(landed);
            int givenUp = unseen.afterMark(fresh, absent, clock.instant());
            if (!records.isEmpty()) {
                opened.commitSync();
            }
            if (failures > 0) {
                LOG.info("Connect mode: recording what the connector published again");
                failures = 0;
            }
            if (givenUp > 0) {
                LOG.fine(() -> "Connect mode: " + givenUp + " record(s) name events this outbox does not have");
            }
        }
    }

    /** The event a record carries: its {@code ce_id} header, else the Debezium-style {@code id}; none if no UUID. */
    static Optional<UUID> eventId(ConsumerRecord<?, ?> record) {
        for (String name : new String[] {"ce_id", "id"}) {
            Header header = record.headers().lastHeader(name);
            if (header != null && header.value() != null) {
                try {
                    return Optional.of(UUID.fromString(new String(header.value(), StandardCharsets.UTF_8).trim()));
                } catch (IllegalArgumentException notAnEventId) {
                    // a record of someone else's on a matching topic: try the other header, else skip it
                }
            }
        }
        return Optional.empty();
    }

    void stop() {
        stopping = true;
        stopped.countDown();
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
    }

    boolean awaitFinished(Duration timeout) {
        try {
            return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean awaitStop(Duration delay) {
        try {
            return stopped.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}

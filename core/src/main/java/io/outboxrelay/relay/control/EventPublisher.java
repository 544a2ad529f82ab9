package io.outboxrelay.relay.control;

import io.outboxrelay.kafka.boundary.KafkaSettings;
import io.outboxrelay.relay.boundary.RelaySettings;
import io.outboxrelay.relay.entity.PublishResult;
import io.outboxrelay.relay.entity.PublishResult.Acked;
import io.outboxrelay.relay.entity.PublishResult.Failed;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends records with one long-lived, idempotent, acks=all producer: a whole batch asynchronously,
 * then waits (bounded) for every acknowledgement.
 */
@ApplicationScoped
public class EventPublisher {

    private static final PublishResult LEASE_RUNNING_OUT =
            new PublishResult.NotSent("the round's lease would run out before the record could land");

    @Inject
    KafkaSettings kafka;

    @Inject
    RelaySettings settings;

    private Producer<String, byte[]> producer;
    private Duration landingBound;

    /** Publishes records keyed by row id, all at once, while {@code window} is open; every row gets a result. */
    public Map<Long, PublishResult> publish(Map<Long, ProducerRecord<String, byte[]>> records, SendWindow window)
            throws InterruptedException {
        return publish(records, Set.of(), window);
    }

    /**
     * Publishes records keyed by row id; every row gets a result. The {@code isolated} ones
     * (events that failed before) are sent one at a time after the others: a record the broker
     * rejects can take the records batched with it down too (a batch holding a too-large record
     * may only time out), so a suspect gets a batch of its own and cannot harm its neighbours twice.
     */
    public Map<Long, PublishResult> publish(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated,
                                            SendWindow window) throws InterruptedException {
        return complete(send(records, isolated, window));
    }

    /**
     * Hands every record but the {@code isolated} ones to the producer and returns without waiting for
     * Kafka: {@link #complete} waits for the acknowledgements and then sends the isolated ones.
     */
    public Sending send(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated, SendWindow window) {
        Producer<String, byte[]> producer = producer();
        Map<String, Throwable> unusableTopics = checkTopics(producer, records.values().stream()
                .map(ProducerRecord::topic).distinct().toList());
        Map<Long, CompletableFuture<PublishResult>> pending = new LinkedHashMap<>();
        boolean open = window.open();
        records.forEach((id, record) -> {
            if (!isolated.contains(id)) {
                pending.put(id, open ? send(producer, record, unusableTopics.get(record.topic()))
                        : CompletableFuture.completedFuture(LEASE_RUNNING_OUT));
            }
        });
        return new Sending(records, isolated, window, unusableTopics, pending);
    }

    /** Waits for what {@link #send} handed over, then sends the isolated records; every row gets a result. */
    public Map<Long, PublishResult> complete(Sending sending) throws InterruptedException {
        Producer<String, byte[]> producer = producer();
        Map<Long, PublishResult> results = await(sending.pending());
        PublishResult timedOut = null;
        for (Map.Entry<Long, ProducerRecord<String, byte[]>> suspect : sending.records().entrySet()) {
            if (!sending.isolated().contains(suspect.getKey())) {
                continue;
            }
            if (!sending.window().open()) {
                results.put(suspect.getKey(), LEASE_RUNNING_OUT);
                continue;
            }
            if (timedOut != null) { // Kafka is slow or gone: do not wait a send timeout per suspect
                results.put(suspect.getKey(), timedOut);
                continue;
            }
            CompletableFuture<PublishResult> alone = send(producer, suspect.getValue(),
                    sending.unusableTopics().get(suspect.getValue().topic()));
            producer.flush();
            PublishResult result = await(Map.of(suspect.getKey(), alone)).get(suspect.getKey());
            results.put(suspect.getKey(), result);
            if (result instanceof Failed failed && FailureKind.of(failed.error()) == FailureKind.AMBIGUOUS) {
                timedOut = result;
            }
        }
        return results;
    }

    /** Records on their way to Kafka: those already handed to the producer, and the isolated ones still to send. */
    public record Sending(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated, SendWindow window,
                          Map<String, Throwable> unusableTopics, Map<Long, CompletableFuture<PublishResult>> pending) {
    }

    /**
     * Asking for a topic's partitions once per batch makes a missing topic fail fast for all its
     * records together, instead of blocking on metadata once per record.
     */
    private static Map<String, Throwable> checkTopics(Producer<String, byte[]> producer, List<String> topics) {
        Map<String, Throwable> unusable = new HashMap<>();
        for (String topic : topics) {
            try {
                producer.partitionsFor(topic);
            } catch (RuntimeException problem) {
                unusable.put(topic, problem);
            }
        }
        return unusable;
    }

    private static CompletableFuture<PublishResult> send(Producer<String, byte[]> producer,
                                                         ProducerRecord<String, byte[]> record, Throwable topicProblem) {
        CompletableFuture<PublishResult> result = new CompletableFuture<>();
        if (topicProblem != null) {
            result.complete(new Failed(topicProblem));
            return result;
        }
        try {
            producer.send(record, (metadata, error) -> result.complete(error == null
                    ? new Acked(metadata.partition(), metadata.offset())
                    : new Failed(error)));
        } catch (RuntimeException refused) { // serialization, size checks, closed producer
            result.complete(new Failed(refused));
        }
        return result;
    }

    private Map<Long, PublishResult> await(Map<Long, CompletableFuture<PublishResult>> pending) throws InterruptedException {
        CompletableFuture<Void> all = CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new));
        try {
            all.get(settings.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException notAllAcked) {
            // unacked records are reported as timed out below
        }
        Map<Long, PublishResult> results = new LinkedHashMap<>();
        pending.forEach((id, future) -> results.put(id, future.getNow(new Failed(
                new org.apache.kafka.common.errors.TimeoutException("no acknowledgement within "
                        + settings.sendTimeout().toMillis() + " ms")))));
        return results;
    }

    /**
     * The longest a record handed to the producer can take to land or fail for good: {@code send} may block
     * for {@code max.block.ms}, and then {@code delivery.timeout.ms} bounds everything else.
     */
    public synchronized Duration landingBound() {
        if (landingBound == null) { // asked every round; the configuration does not change while the server runs
            Map<String, Object> properties = producerProperties();
            landingBound = Duration.ofMillis(millis(properties, ProducerConfig.MAX_BLOCK_MS_CONFIG)
                    + millis(properties, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        }
        return landingBound;
    }

    private static long millis(Map<String, Object> properties, String name) {
        return Long.parseLong(String.valueOf(properties.get(name)).trim());
    }

    private Map<String, Object> producerProperties() {
        Map<String, Object> defaults = new HashMap<>();
        // no lingering: a round hands its whole batch over at once, and what accumulates while a request is in
        // flight is batched anyway; 5 ms of linger cost every round 5 ms and the steady latency's median ~10 ms
        defaults.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        defaults.put(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        defaults.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        defaults.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        defaults.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        defaults.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 25_000);
        defaults.putAll(settings.producerOverrides());
        return kafka.reliableProducerProperties("relay", defaults);
    }

    private synchronized Producer<String, byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerProperties(), new StringSerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
        }
    }
}

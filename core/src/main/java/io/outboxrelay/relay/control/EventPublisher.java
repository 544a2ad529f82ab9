package io.outboxrelay.relay.control;

import io.outboxrelay.kafka.boundary.KafkaSettings;
import io.outboxrelay.kafka.boundary.NativeLz4;
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
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends records with one long-lived, idempotent, acks=all producer: a whole batch asynchronously,
 * then waits (bounded) for every acknowledgement.
 */
@ApplicationScoped
public class EventPublisher {

    private static final int MOST_REMEMBERED_TOPICS = 10_000;
    /** Kafka's count of the producer's connections that closed, or failed to open (producer-metrics group). */
    private static final String CONNECTIONS_CLOSED = "connection-close-total";
    private static final PublishResult LEASE_RUNNING_OUT =
            new PublishResult.NotSent("the round's lease would run out before the record could land");
    private static final PublishResult PREDECESSOR_DID_NOT_LAND =
            new PublishResult.NotSent("the event before it of its aggregate did not land");

    @Inject
    KafkaSettings kafka;

    @Inject
    RelaySettings settings;

    private Producer<String, byte[]> producer;
    /** Whether {@link #complete} flushes: unless a {@code linger.ms} is configured (set with the producer). */
    private volatile boolean flushEachBatch;
    private Duration landingBound;
    /** Topics as their last check found them: usable ones are checked first in a batch, failed ones last. */
    private final Set<String> usableTopics = ConcurrentHashMap.newKeySet();
    private final Set<String> failedTopics = ConcurrentHashMap.newKeySet();
    /** The producer's {@value #CONNECTIONS_CLOSED}, found as it is made; null without a producer, or if it has none. */
    private volatile Metric connectionsClosed;

    /** As {@link #send(Map, Set, SendWindow, SendLayers)}, with every record in one layer. */
    public Sending send(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated, SendWindow window) {
        return send(records, isolated, window, SendLayers.together(records.keySet()));
    }

    /**
     * Hands the first layer's records but the {@code isolated} ones to the producer and returns without waiting for
     * Kafka: {@link #complete} waits for the acknowledgements and then sends the isolated ones (events that failed
     * before), one at a time, and then the next layer the same way. A record the broker rejects can take the records
     * batched with it down too (a batch holding a too-large record may only time out), so a suspect gets a batch of
     * its own and cannot harm its neighbours twice.
     * <p>
     * Topic by topic: each topic is checked once per layer (a missing one blocks for {@code max.block.ms}), and its
     * records are handed over at once if the window is still open. Topics that passed before are checked first (they
     * answer from the producer's metadata) and those that failed before last, so events for a few missing topics
     * cannot use up the window of all the others, round after round. A record whose topic failed its check fails
     * now, window or not (it is never handed over); one whose topic was not reached before the window closed is
     * given back unsent.
     */
    public Sending send(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated, SendWindow window,
                        SendLayers layers) {
        Producer<String, byte[]> producer = producer();
        long closedBefore = connectionsClosed();
        Map<String, Throwable> unusableTopics = new HashMap<>();
        Map<Long, ProducerRecord<String, byte[]>> first = new LinkedHashMap<>();
        if (layers.count() > 0) {
            layers.layer(0).forEach(id -> first.put(id, records.get(id)));
        }
        return new Sending(records, isolated, window, layers, unusableTopics,
                handOver(producer, first, isolated, window, unusableTopics), closedBefore);
    }

    /**
     * Checks the records' topics and hands each record but the isolated ones to the producer; see {@link #send}.
     * Returns each of those records' result to come: handed over, failed at once (its topic failed its check) or
     * given back (the window closed first).
     */
    private Map<Long, CompletableFuture<PublishResult>> handOver(Producer<String, byte[]> producer,
                                                                 Map<Long, ProducerRecord<String, byte[]>> records,
                                                                 Set<Long> isolated, SendWindow window,
                                                                 Map<String, Throwable> unusableTopics) {
        Map<String, List<Long>> idsByTopic = new LinkedHashMap<>();
        records.forEach((id, record) -> idsByTopic.computeIfAbsent(record.topic(), topic -> new ArrayList<>()).add(id));
        List<String> topics = new ArrayList<>(idsByTopic.keySet());
        topics.sort(Comparator.comparingInt(this::checkOrder)); // stable: within a rank, as the batch has them
        Map<Long, CompletableFuture<PublishResult>> pending = new LinkedHashMap<>();
        for (String topic : topics) {
            boolean checked = window.open();
            Throwable topicProblem = checked ? checkTopic(producer, topic) : null;
            if (topicProblem != null) {
                unusableTopics.put(topic, topicProblem);
            }
            for (Long id : idsByTopic.get(topic)) {
                if (!isolated.contains(id)) {
                    pending.put(id, topicProblem != null || (checked && window.open())
                            ? send(producer, records.get(id), topicProblem)
                            : CompletableFuture.completedFuture(LEASE_RUNNING_OUT));
                }
            }
        }
        return pending;
    }

    /**
     * Waits for what {@link #send} handed over, then sends the isolated records, then the next layer's records whose
     * predecessor landed, and so on; every row gets a result, a record whose predecessor did not land a
     * {@link PublishResult.NotSent}. Each layer's waiting begins with a flush: what still lingers in the producer
     * goes now, in as few requests as it fits; unless {@code outbox.relay.producer.linger.ms} is configured, in which
     * case records linger as it says.
     */
    public Map<Long, PublishResult> complete(Sending sending) throws InterruptedException {
        Producer<String, byte[]> producer = producer();
        SendLayers layers = sending.layers();
        Map<Long, PublishResult> results = new LinkedHashMap<>();
        Map<Long, CompletableFuture<PublishResult>> pending = sending.pending();
        PublishResult timedOut = null;
        for (int layer = 0; layer < layers.count(); layer++) {
            if (layer > 0) {
                Map<Long, ProducerRecord<String, byte[]>> ready = new LinkedHashMap<>();
                for (Long id : layers.layer(layer)) {
                    if (layers.mayGo(id, results)) {
                        ready.put(id, sending.records().get(id));
                    } else {
                        results.put(id, PREDECESSOR_DID_NOT_LAND);
                    }
                }
                pending = handOver(producer, ready, sending.isolated(), sending.window(), sending.unusableTopics());
            }
            List<Long> suspects = layers.layer(layer).stream()
                    .filter(id -> sending.isolated().contains(id) && !results.containsKey(id)).toList();
            if (!pending.isEmpty() && flushEachBatch) {
                flush(producer);
            }
            results.putAll(await(pending));
            timedOut = sendAlone(producer, sending, suspects, results, timedOut);
        }
        return results;
    }

    /**
     * Sends each suspect alone and waits for it, unless the window closed; after a send that timed out, the rest get
     * its result without a send of their own (Kafka is slow or gone: do not wait a send timeout per suspect). Returns
     * the timed-out result, if any so far.
     */
    private PublishResult sendAlone(Producer<String, byte[]> producer, Sending sending, List<Long> suspects,
                                    Map<Long, PublishResult> results, PublishResult timedOutBefore)
            throws InterruptedException {
        PublishResult timedOut = timedOutBefore;
        for (Long id : suspects) {
            ProducerRecord<String, byte[]> suspect = sending.records().get(id);
            Throwable topicProblem = sending.unusableTopics().get(suspect.topic());
            if (!sending.window().open() && topicProblem == null) {
                results.put(id, LEASE_RUNNING_OUT);
                continue;
            }
            if (timedOut != null) {
                results.put(id, timedOut);
                continue;
            }
            CompletableFuture<PublishResult> alone = send(producer, suspect, topicProblem);
            producer.flush();
            PublishResult result = await(Map.of(id, alone)).get(id);
            results.put(id, result);
            if (result instanceof Failed failed && FailureKind.of(failed.error()) == FailureKind.AMBIGUOUS) {
                timedOut = result;
            }
        }
        return timedOut;
    }

    /**
     * Records on their way to Kafka: those already handed to the producer, and the isolated ones still to send; with
     * the producer's count of closed connections when they were handed over.
     */
    public record Sending(Map<Long, ProducerRecord<String, byte[]>> records, Set<Long> isolated, SendWindow window,
                          SendLayers layers, Map<String, Throwable> unusableTopics,
                          Map<Long, CompletableFuture<PublishResult>> pending, long connectionsClosedBefore) {
    }

    /**
     * Whether the producer lost a connection to the cluster, or failed to open one, since {@code sending} was handed
     * over: the cluster, or one of its brokers, was away meanwhile, even if it answers again now. A send that timed out
     * then is the outage's doing, not its record's. (Connections the client closes as idle, after 9 minutes unused by
     * default, count too; a batch is on its way for seconds.)
     */
    public boolean lostConnectionSince(Sending sending) {
        return connectionsClosed() > sending.connectionsClosedBefore();
    }

    /** The producer's count of connections that closed or could not be opened; 0 if its client does not count them. */
    private long connectionsClosed() {
        Metric metric = connectionsClosed;
        return metric != null && metric.metricValue() instanceof Number count ? count.longValue() : 0;
    }

    /**
     * Asking for a topic's partitions once per batch makes a missing topic fail fast for all its records together,
     * instead of blocking on metadata once per record. Returns the problem, or null for a usable topic.
     */
    private Throwable checkTopic(Producer<String, byte[]> producer, String topic) {
        try {
            producer.partitionsFor(topic);
        } catch (RuntimeException problem) {
            remember(topic, failedTopics, usableTopics);
            return problem;
        }
        remember(topic, usableTopics, failedTopics);
        return null;
    }

    /** 0: passed its last check, 1: not checked yet, 2: failed its last check. */
    private int checkOrder(String topic) {
        return usableTopics.contains(topic) ? 0 : failedTopics.contains(topic) ? 2 : 1;
    }

    private static void remember(String topic, Set<String> in, Set<String> notIn) {
        notIn.remove(topic);
        if (in.size() >= MOST_REMEMBERED_TOPICS) {
            in.clear();
        }
        in.add(topic);
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

    /**
     * Sends every record the producer holds and waits until each is answered or failed for good, which
     * {@code delivery.timeout.ms} bounds (below the send timeout). A flush that fails otherwise (the producer closed
     * as the server stops) leaves the outcome to the acknowledgements.
     */
    private static void flush(Producer<String, byte[]> producer) throws InterruptedException {
        try {
            producer.flush();
        } catch (org.apache.kafka.common.errors.InterruptException interrupted) {
            Thread.interrupted(); // Kafka set the flag again; an InterruptedException carries it instead
            InterruptedException carried = new InterruptedException("interrupted while sending a batch");
            carried.initCause(interrupted);
            throw carried;
        } catch (RuntimeException closed) {
            // the acknowledgements below tell each record's outcome
        }
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
        // a round's records linger until it waits for them (complete() flushes), so a batch of 500 goes in one or
        // two requests, not dozens: without lingering, each of the producer's five requests in flight carried what
        // had accumulated meanwhile, and both the broker and the producer paid per request (a producer alone,
        // 2026-12-05: 77-107 records per request, broker 5-13 us and producer 14-16 us of CPU per event; with the
        // flush 345-366, 2 us and 9-10 us). 5 ms bounds a record's wait should a batch be waited for late.
        defaults.put(ProducerConfig.LINGER_MS_CONFIG, 5);
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
            flushEachBatch = !settings.producerOverrides().containsKey(ProducerConfig.LINGER_MS_CONFIG);
            NativeLz4.load(); // before the producer makes its codec, whatever compression is configured
            producer = new KafkaProducer<>(producerProperties(), new StringSerializer(), new ByteArraySerializer());
            connectionsClosed = producer.metrics().entrySet().stream()
                    .filter(metric -> metric.getKey().group().equals("producer-metrics")
                            && metric.getKey().name().equals(CONNECTIONS_CLOSED))
                    .findFirst().<Metric>map(Map.Entry::getValue).orElse(null);
        }
        return producer;
    }

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            producer = null;
            connectionsClosed = null;
        }
    }
}

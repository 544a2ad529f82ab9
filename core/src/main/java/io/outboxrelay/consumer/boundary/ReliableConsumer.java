package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumerDeadLetterRows;
import io.outboxrelay.consumer.control.ConsumerDeadLetters;
import io.outboxrelay.consumer.control.ConsumerPolicies;
import io.outboxrelay.consumer.control.IncomingEvents;
import io.outboxrelay.consumer.control.PartitionLanes;
import io.outboxrelay.consumer.control.ProcessSpans;
import io.outboxrelay.consumer.control.Retrying;
import io.outboxrelay.consumer.entity.ConsumerOutcome;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.tracing.boundary.MessageSpan;
import io.outboxrelay.tracing.boundary.Tracing;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Handles one Kafka record for a consumer group: idempotently, retried with backoff, and, when
 * the retries run out (or the record is poison), dead-lettered: recorded in {@code consumer_dead_letter}
 * (where operators see it and can replay it to this group alone, see {@link ConsumerReplays}) and sent to
 * {@code <topic>.<group>.DLT}. The message is acknowledged, and so its offset committed, only after its
 * transaction committed or both copies of its dead letter were written. Records of a partition are
 * handled one after the other, so order holds; records of different partitions are handled at the same
 * time, up to the group's concurrency
 * ({@code outbox.consumer.<group>.concurrency}, else {@code outbox.consumer.concurrency}).
 * The connector commits a partition's offset only up to its first unacknowledged record.
 */
@ApplicationScoped
public class ReliableConsumer {

    private static final Logger LOG = Logger.getLogger(ReliableConsumer.class.getName());

    @Inject
    IdempotentHandling idempotent;

    @Inject
    ConsumerDeadLetters deadLetters;

    @Inject
    ConsumerDeadLetterRows deadLetterRows;

    @Inject
    ConsumerPolicies policies;

    @Inject
    ConsumerReplays replays;

    @Inject
    Tracing tracing;

    @Inject
    @ConfigProperty(name = "outbox.consumer.concurrency", defaultValue = "4")
    int concurrency;

    @Inject
    @ConfigProperty(name = "outbox.consumer.buffer", defaultValue = "64")
    int buffer;

    @Resource
    ManagedExecutorService executor;

    @Inject
    Event<ConsumerOutcome> outcomes;

    private final Map<String, PartitionLanes> lanes = new ConcurrentHashMap<>();

    /**
     * Makes this server replay {@code group}'s dead letters through {@code handler} from now on, before the
     * group's first record arrives (which registers it too). Call it when the application starts if replays
     * asked for while the group's topic is quiet should not wait for its next record.
     */
    public void register(String group, Consumer<IncomingEvent> handler) {
        replays.serve(group, handler);
    }

    /**
     * Takes the record into its partition's lane and answers once it is taken (not once it is
     * handled: the message is acknowledged then). Never fails the returned stage: a failed stage
     * would end the channel's stream and stop the consumer for good. What cannot be handled is
     * dead-lettered; a dead letter Kafka will not take is retried until it does, holding the
     * partition (nothing is skipped, nothing lost).
     */
    public CompletionStage<Void> consume(String group, Message<String> message, Consumer<IncomingEvent> handler) {
        @SuppressWarnings("unchecked")
        ConsumerRecord<String, String> record = message.unwrap(ConsumerRecord.class);
        return lanesOf(group, handler).submit(record.topic() + "-" + record.partition(), () -> handle(group, message, record, handler));
    }

    private PartitionLanes lanesOf(String group, Consumer<IncomingEvent> handler) {
        return lanes.computeIfAbsent(group, name -> {
            replays.serve(name, handler);
            int groupConcurrency = ConfigProvider.getConfig()
                    .getOptionalValue("outbox.consumer." + name + ".concurrency", Integer.class)
                    .orElse(concurrency);
            return new PartitionLanes(groupConcurrency, Math.max(buffer, groupConcurrency), executor);
        });
    }

    private void handle(String group, Message<String> message, ConsumerRecord<String, String> record,
                        Consumer<IncomingEvent> handler) {
        long started = System.nanoTime();
        IdempotentHandling.Outcome[] outcome = new IdempotentHandling.Outcome[1];
        ConsumerOutcome.Kind kind;
        Retrying.Result result;
        MessageSpan span = ProcessSpans.start(tracing, group, record, false);
        try (MessageSpan.Scope current = span.makeCurrent()) { // the handler's own spans and appends continue it
            RecordPlace place = RecordPlace.of(record);
            result = policies.handling().run(() ->
                    outcome[0] = idempotent.handleOnce(group, place, IncomingEvents.of(record), handler));
            if (result.passed() && result.attempts() > 0) {
                LOG.info(() -> group + " handled " + where(record) + " after " + result.attempts()
                        + " failed attempt(s); last error: " + result.lastErrorOrNone());
            }
            if (result.passed()) {
                kind = outcome[0] == IdempotentHandling.Outcome.DUPLICATE
                        ? ConsumerOutcome.Kind.DUPLICATE : ConsumerOutcome.Kind.PROCESSED;
            } else {
                deadLetter(group, record, result);
                kind = ConsumerOutcome.Kind.DEAD_LETTERED;
            }
        } catch (InterruptedException interrupted) { // server stopping: leave the record unacknowledged
            Thread.currentThread().interrupt();
            ProcessSpans.interrupted(span);
            return;
        }
        ProcessSpans.end(span, kind, result);
        message.ack();
        outcomes.fire(new ConsumerOutcome(group, kind, result.attempts(), Duration.ofNanos(System.nanoTime() - started)));
    }

    private void deadLetter(String group, ConsumerRecord<String, String> record, Retrying.Result failure)
            throws InterruptedException {
        // both copies, or the record stays unacknowledged: the database's (for operators and replays), then Kafka's
        Retrying.Result recorded = policies.deadLettering().run(() -> deadLetterRows.record(group, record, failure));
        Retrying.Result sent = policies.deadLettering().run(() -> deadLetters.send(group, record, failure));
        for (Retrying.Result written : List.of(recorded, sent)) {
            if (written.attempts() > 0) {
                LOG.warning(() -> group + " could write the dead letter of " + where(record) + " to "
                        + (written == recorded ? "the database" : "Kafka") + " only after " + written.attempts()
                        + " failed attempt(s): " + written.lastErrorOrNone());
            }
        }
        LOG.warning(() -> group + " dead-lettered " + where(record) + " to "
                + ConsumerDeadLetters.topicFor(record.topic(), group) + " after " + failure.attempts()
                + " attempt(s): " + failure.lastError());
    }

    /** The record's place and, as far as its headers tell, its event and trace: {@code topic-partition@offset (event=... trace=...)}. */
    private static String where(ConsumerRecord<String, String> record) {
        String place = record.topic() + "-" + record.partition() + "@" + record.offset();
        String id = IncomingEvents.header(record, "ce_id");
        String trace = IncomingEvents.header(record, "traceparent");
        String correlation = IncomingEvents.header(record, "correlation-id");
        StringBuilder context = new StringBuilder();
        if (id != null) {
            context.append("event=").append(id.length() > 80 ? id.substring(0, 80) : id);
        }
        if (trace != null && trace.length() >= 35) {
            context.append(context.isEmpty() ? "" : " ").append("trace=").append(trace, 3, 35);
        }
        if (correlation != null) {
            context.append(context.isEmpty() ? "" : " ").append("correlation=")
                    .append(correlation.length() > 100 ? correlation.substring(0, 100) : correlation);
        }
        return context.isEmpty() ? place : place + " (" + context + ")";
    }
}

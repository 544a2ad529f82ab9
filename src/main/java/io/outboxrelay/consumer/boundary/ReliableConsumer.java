package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.boundary.IdempotentHandling.Outcome;
import io.outboxrelay.consumer.control.ConsumerDeadLetters;
import io.outboxrelay.consumer.control.IncomingEvents;
import io.outboxrelay.consumer.control.Retrying;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.relay.control.Backoff;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Handles one Kafka record for a consumer group: idempotently, retried with backoff, and, when
 * the retries run out (or the record is poison), dead-lettered. The message is acknowledged,
 * and so its offset committed, only after its transaction committed or its dead letter was
 * acked; records of a partition are handled one after the other, so order holds.
 */
@ApplicationScoped
public class ReliableConsumer {

    private static final Logger LOG = Logger.getLogger(ReliableConsumer.class.getName());

    @Inject
    IdempotentHandling idempotent;

    @Inject
    ConsumerDeadLetters deadLetters;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.consumer.max-attempts", defaultValue = "5")
    int maxAttempts;

    @Inject
    @ConfigProperty(name = "outbox.consumer.backoff.base-ms", defaultValue = "500")
    long backoffBaseMs;

    @Inject
    @ConfigProperty(name = "outbox.consumer.backoff.cap-ms", defaultValue = "30000")
    long backoffCapMs;

    public CompletionStage<Void> consume(String group, Message<String> message, Consumer<IncomingEvent> handler) {
        @SuppressWarnings("unchecked")
        ConsumerRecord<String, String> record = message.unwrap(ConsumerRecord.class);
        try {
            AtomicReference<Outcome> outcome = new AtomicReference<>();
            Retrying.Result result = retrying().run(() ->
                    outcome.set(idempotent.handleOnce(group, IncomingEvents.of(record), handler)));
            if (result.passed() && result.attempts() > 0) {
                LOG.info(() -> group + " handled " + record.topic() + "-" + record.partition() + "@" + record.offset()
                        + " after " + result.attempts() + " failed attempt(s); last error: " + result.lastErrorOrNone());
            }
            if (!result.passed()) {
                deadLetters.send(group, record, result);
                LOG.warning(() -> group + " dead-lettered " + record.topic() + "-" + record.partition() + "@"
                        + record.offset() + " to " + ConsumerDeadLetters.topicFor(record.topic(), group)
                        + " after " + result.attempts() + " attempt(s): " + result.lastError());
            }
            return message.ack();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(interrupted);
        } catch (Exception deadLetterFailed) { // not acknowledged: the record comes back
            return CompletableFuture.failedFuture(deadLetterFailed);
        }
    }

    private Retrying retrying() {
        Backoff backoff = new Backoff(Duration.ofMillis(backoffBaseMs), Duration.ofMillis(backoffCapMs), 0.2);
        return new Retrying(maxAttempts, backoff, clock, duration -> Thread.sleep(duration.toMillis()));
    }
}

package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.entity.IncomingEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.io.StringReader;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A consumer of another application, built on the reusable piece, whose downstream fails the
 * first {@code failTimes} calls for each event (the payload says how many), then works. Its
 * effect, one notification row, names the call that succeeded.
 */
@ApplicationScoped
public class FlakyConsumer {

    private final Map<UUID, AtomicInteger> calls = new ConcurrentHashMap<>();

    @Inject
    ReliableConsumer consumer;

    @Inject
    NotificationRows notifications;

    @Inject
    @ConfigProperty(name = "mp.messaging.incoming.flaky.group.id")
    String group;

    @Incoming("flaky")
    public CompletionStage<Void> onEvent(Message<String> message) {
        return consumer.consume(group, message, this::handle);
    }

    void handle(IncomingEvent event) {
        int call = calls.computeIfAbsent(event.eventId(), id -> new AtomicInteger()).incrementAndGet();
        notifications.insert(new IncomingEvent(event.eventId(), "call-" + call, event.aggregateId(), event.payload()));
        int failTimes;
        try (JsonReader reader = Json.createReader(new StringReader(event.payload()))) {
            failTimes = reader.readObject().getInt("failTimes");
        }
        if (call <= failTimes) {
            throw new IllegalStateException("downstream unavailable (call " + call + ")");
        }
    }
}

package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.entity.IncomingEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.io.StringReader;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A consumer of another application, built on the reusable piece, whose downstream fails the
 * first {@code failTimes} calls for each event (the payload says how many), then works. Its
 * effect, one notification row, names the call that succeeded. Events whose payload names a
 * {@code meet} point fail unless {@code parties} of them are being handled at the same time.
 */
@ApplicationScoped
public class FlakyConsumer {

    private static final long MEET_WITHIN_SECONDS = 20;

    private final Map<UUID, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> meetings = new ConcurrentHashMap<>();

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
        JsonObject payload;
        try (JsonReader reader = Json.createReader(new StringReader(event.payload()))) {
            payload = reader.readObject();
        }
        if (call <= payload.getInt("failTimes")) {
            throw new IllegalStateException("downstream unavailable (call " + call + ")");
        }
        if (payload.containsKey("meet")) {
            meet(payload.getString("meet"), payload.getInt("parties"));
        }
    }

    private void meet(String point, int parties) {
        CountDownLatch meeting = meetings.computeIfAbsent(point, name -> new CountDownLatch(parties));
        meeting.countDown();
        try {
            if (!meeting.await(MEET_WITHIN_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no other event came to " + point + " while this one waited");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stopped while waiting at " + point, e);
        }
    }
}

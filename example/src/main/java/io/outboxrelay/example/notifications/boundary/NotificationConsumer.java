package io.outboxrelay.example.notifications.boundary;

import io.outboxrelay.consumer.boundary.ReliableConsumer;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.example.schema.SampleSchema;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/** Writes one {@code notification} row per order event, as a mail or push service would send one message. */
@ApplicationScoped
public class NotificationConsumer {

    public static final String GROUP = "notifications";

    @Inject
    ReliableConsumer consumer;

    @Inject
    SampleSchema schema;

    @PersistenceContext
    EntityManager em;

    @Incoming(GROUP)
    public CompletionStage<Void> onOrderEvent(Message<String> message) {
        schema.await(Duration.ofMinutes(5)); // channels may deliver before the application has started
        return consumer.consume(GROUP, message, this::apply);
    }

    void apply(IncomingEvent event) {
        em.createNativeQuery("INSERT INTO notification (event_id, order_id, kind) VALUES (?1, ?2, ?3)")
                .setParameter(1, event.eventId())
                .setParameter(2, String.valueOf(event.aggregateId()))
                .setParameter(3, String.valueOf(event.eventType()))
                .executeUpdate();
    }
}

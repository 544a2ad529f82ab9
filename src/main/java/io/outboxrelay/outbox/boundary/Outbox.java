package io.outboxrelay.outbox.boundary;

import io.outboxrelay.outbox.control.EventHeaders;
import io.outboxrelay.outbox.control.EventIds;
import io.outboxrelay.outbox.control.TopicNames;
import io.outboxrelay.outbox.entity.EventAppended;
import io.outboxrelay.outbox.entity.OutboxEvent;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/**
 * Appends events to the outbox. {@code MANDATORY}: an append only ever joins the caller's JTA
 * transaction, so the event row commits or rolls back together with the business change that
 * caused it, and an append without a transaction is refused rather than committed on its own.
 * Nothing here talks to Kafka; the relay publishes the row after the commit.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class Outbox {

    public static final int DEFAULT_EVENT_VERSION = 1;

    @PersistenceContext
    EntityManager em;

    @Inject
    EventIds eventIds;

    @Inject
    TopicNames topics;

    @Inject
    EventHeaders eventHeaders;

    @Inject
    Clock clock;

    @Inject
    Event<EventAppended> appended;

    private final Jsonb jsonb = JsonbBuilder.create();

    /** Appends a version-1 event; returns its event id. */
    public UUID append(String aggregateType, String aggregateId, String eventType, Object payload) {
        return append(aggregateType, aggregateId, eventType, DEFAULT_EVENT_VERSION, payload, Map.of());
    }

    /**
     * Appends an event and returns its event id, the id consumers deduplicate on.
     *
     * @param payload serialised with JSON-B into the row's jsonb payload
     * @param headers stored with the row and sent as Kafka headers, besides the request's
     *                correlation id and trace context
     */
    public UUID append(@NotBlank(message = "aggregateType is required") @Size(max = 100) String aggregateType,
                       @NotBlank(message = "aggregateId is required") @Size(max = 200) String aggregateId,
                       @NotBlank(message = "eventType is required") @Size(max = 200) String eventType,
                       @Min(value = 1, message = "eventVersion starts at 1") int eventVersion,
                       @NotNull(message = "payload is required") Object payload,
                       @NotNull(message = "headers may be empty but not null") Map<String, String> headers) {
        UUID eventId = eventIds.next();
        OutboxEvent event = new OutboxEvent(eventId, aggregateType, aggregateId, eventType, eventVersion,
                topics.topicFor(aggregateType), jsonb.toJson(payload), jsonb.toJson(eventHeaders.of(headers)),
                OffsetDateTime.now(clock));
        em.persist(event);
        appended.fire(new EventAppended(eventId, event.getTopic()));
        return eventId;
    }

    @PreDestroy
    void close() {
        try {
            jsonb.close();
        } catch (Exception ignored) {
            // nothing to release that matters at shutdown
        }
    }
}

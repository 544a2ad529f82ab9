package io.outboxrelay.outbox.boundary;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.outbox.control.EventHeaders;
import io.outboxrelay.outbox.control.EventIds;
import io.outboxrelay.outbox.control.RelayNotification;
import io.outboxrelay.outbox.control.TopicNames;
import io.outboxrelay.outbox.entity.OutboxWriteException;
import io.outboxrelay.time.OutboxClock;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.transaction.Transactional;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

/**
 * Appends events to the outbox. {@code MANDATORY}: an append only ever joins the caller's JTA
 * transaction, so the event row commits or rolls back together with the business change that
 * caused it, and an append without a transaction is refused rather than committed on its own.
 * The row is written with plain JDBC on the caller's JTA connection ({@code outbox.datasource}), so
 * the append works from JPA and from JDBC applications alike and needs nothing in the caller's
 * persistence unit. Nothing here talks to Kafka; the relay publishes the row after the commit, woken
 * at once, in this server and in every other, by {@link RelayNotification}.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class Outbox {

    public static final int DEFAULT_EVENT_VERSION = 1;

    private static final String INSERT = """
            INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, event_version, topic,
                                      payload, headers, created_at, updated_at, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, CAST(? AS jsonb), CAST(? AS jsonb), ?, ?, ?)""";

    @Inject
    OutboxDataSources dataSources;

    @Inject
    RelayNotification relays;

    @Inject
    EventIds eventIds;

    @Inject
    TopicNames topics;

    @Inject
    EventHeaders eventHeaders;

    @Inject
    @OutboxClock
    Clock clock;

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
        String topic = topics.topicFor(aggregateType);
        OffsetDateTime now = OffsetDateTime.now(clock.withZone(ZoneOffset.UTC));
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setObject(1, eventId);
            insert.setString(2, aggregateType);
            insert.setString(3, aggregateId);
            insert.setString(4, eventType);
            insert.setInt(5, eventVersion);
            insert.setString(6, topic);
            insert.setString(7, jsonb.toJson(payload));
            insert.setString(8, EventHeaders.json(eventHeaders.of(headers)));
            insert.setObject(9, now);
            insert.setObject(10, now);
            insert.setObject(11, now);
            insert.executeUpdate();
        } catch (SQLException failed) {
            throw new OutboxWriteException("Appending " + eventType + " of " + aggregateType + " " + aggregateId
                    + " failed", failed);
        }
        relays.afterCommit();
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

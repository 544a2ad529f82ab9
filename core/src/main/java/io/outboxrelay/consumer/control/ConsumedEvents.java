package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.UUID;

/**
 * The dedup log. Joins the handler's transaction on the JTA data source ({@code outbox.datasource}),
 * so the mark and the handler's effect commit together, whether the handler writes with JPA or JDBC.
 */
@ApplicationScoped
public class ConsumedEvents {

    /**
     * Inserts the group's record of the event, or counts a duplicate delivery on the one there. A row
     * inserted by this statement has no {@code xmax}; one it updated has this transaction's.
     */
    private static final String MARK = """
            INSERT INTO consumed_event (consumer_group, event_id, event_type, consumed_at, kafka_topic, kafka_partition, kafka_offset)
            VALUES (?, ?, ?, now(), ?, ?, ?)
            ON CONFLICT (consumer_group, event_id)
            DO UPDATE SET duplicates = consumed_event.duplicates + 1, last_duplicate_at = now()
            RETURNING xmax = 0 AS first""";

    @Inject
    OutboxDataSources dataSources;

    /**
     * Records that {@code group} handles {@code eventId}, from the record at {@code place} (null if
     * unknown); false if it already did, and then the delivery is counted as a duplicate. One atomic
     * statement decides (never a check, then an insert): of two concurrent transactions with the
     * same event id, the second waits for the first and then finds the key taken.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean markConsumed(String group, UUID eventId, String eventType, RecordPlace place) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement mark = connection.prepareStatement(MARK)) {
            mark.setString(1, group);
            mark.setObject(2, eventId);
            mark.setString(3, eventType);
            mark.setString(4, place == null ? null : place.topic());
            mark.setObject(5, place == null ? null : place.partition(), Types.INTEGER);
            mark.setObject(6, place == null ? null : place.offset(), Types.BIGINT);
            try (ResultSet first = mark.executeQuery()) {
                return first.next() && first.getBoolean(1);
            }
        } catch (SQLException failed) {
            throw new ConsumedEventsException("Recording " + eventId + " as handled by " + group + " failed", failed);
        }
    }

    /** The dedup log could not be written; the handler's transaction rolls back with it. */
    public static class ConsumedEventsException extends RuntimeException {
        ConsumedEventsException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}

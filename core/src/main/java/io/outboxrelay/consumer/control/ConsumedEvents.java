package io.outboxrelay.consumer.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * The dedup log. Joins the handler's transaction on the JTA data source ({@code outbox.datasource}),
 * so the mark and the handler's effect commit together, whether the handler writes with JPA or JDBC.
 */
@ApplicationScoped
public class ConsumedEvents {

    private static final String MARK = """
            INSERT INTO consumed_event (consumer_group, event_id, event_type, consumed_at)
            VALUES (?, ?, ?, now())
            ON CONFLICT (consumer_group, event_id) DO NOTHING""";

    @Inject
    OutboxDataSources dataSources;

    /**
     * Records that {@code group} handles {@code eventId}; false if it already did. One atomic
     * insert decides (never a check, then an insert): of two concurrent transactions with the
     * same event id, the second waits for the first and then finds the key taken.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean markConsumed(String group, UUID eventId, String eventType) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement mark = connection.prepareStatement(MARK)) {
            mark.setString(1, group);
            mark.setObject(2, eventId);
            mark.setString(3, eventType);
            return mark.executeUpdate() == 1;
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

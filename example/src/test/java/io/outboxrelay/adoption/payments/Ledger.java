package io.outboxrelay.adoption.payments;

import io.outboxrelay.consumer.boundary.ReliableConsumer;
import io.outboxrelay.consumer.entity.IncomingEvent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.CompletionStage;
import javax.sql.DataSource;

/** Books every payment in the ledger; a redelivered event must not book it twice. */
@ApplicationScoped
public class Ledger {

    @Inject
    ReliableConsumer consumer;

    @Resource(lookup = "jdbc/outbox")
    DataSource database;

    @Incoming("ledger")
    public CompletionStage<Void> onPayment(Message<String> message) {
        return consumer.consume("ledger", message, this::book);
    }

    void book(IncomingEvent event) {
        try (Connection connection = database.getConnection();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO ledger_entry (payment_id, event_id) VALUES (?, ?)")) {
            insert.setString(1, event.aggregateId());
            insert.setObject(2, event.eventId());
            insert.executeUpdate();
        } catch (SQLException failed) {
            throw new IllegalStateException("ledger entry for " + event.eventId() + " not written", failed);
        }
    }
}

package io.outboxrelay.adoption.payments;

import io.outboxrelay.outbox.boundary.Outbox;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/** The host's use case: a payment row (plain JDBC on its own data source) and its event, in one transaction. */
@ApplicationScoped
@Transactional
public class Payments {

    public record Receipt(UUID paymentId, UUID eventId) {
    }

    /** Thrown after the append, so the transaction that holds both rows rolls back. */
    public static class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    @Resource(lookup = "jdbc/outbox")
    DataSource database;

    @Inject
    Outbox outbox;

    public Receipt pay(String payer, BigDecimal amount, boolean refuseAfterAppend) {
        UUID paymentId = UUID.randomUUID();
        try (Connection connection = database.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO payment (id, payer, amount) VALUES (?, ?, ?)")) {
            insert.setObject(1, paymentId);
            insert.setString(2, payer);
            insert.setBigDecimal(3, amount);
            insert.executeUpdate();
        } catch (SQLException failed) {
            throw new IllegalStateException("payment " + paymentId + " not written", failed);
        }
        UUID eventId = outbox.append("Payment", paymentId.toString(), "PaymentReceived",
                Map.of("paymentId", paymentId.toString(), "payer", payer, "amount", amount));
        if (refuseAfterAppend) {
            throw new Refused("payment " + paymentId + " refused after its event was appended");
        }
        return new Receipt(paymentId, eventId);
    }
}

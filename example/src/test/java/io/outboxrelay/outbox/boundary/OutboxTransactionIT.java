package io.outboxrelay.outbox.boundary;

import io.outboxrelay.example.orders.boundary.Orders;
import io.outboxrelay.example.orders.entity.OrderLine;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.Filters;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs inside the managed Liberty server (Arquillian), against the real PostgreSQL: the append
 * shares the caller's JTA transaction, so it commits and rolls back with it, and it refuses to
 * run without one.
 */
@ExtendWith(ArquillianExtension.class)
class OutboxTransactionIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "outbox-transaction-it.war")
                .addPackages(true, Filters.exclude(".*(Test|IT)(\\$.*)?\\.class"),
                        "io.outboxrelay.outbox", "io.outboxrelay.example.orders.entity", "io.outboxrelay.tracing",
                        "io.outboxrelay.database.boundary",
                        "io.outboxrelay.time")
                .addClasses(Orders.class, Orders.Outcome.class, AppendThenFail.class)
                .addAsResource("META-INF/persistence.xml");
    }

    @Inject
    Orders orders;

    @Inject
    Outbox outbox;

    @Inject
    AppendThenFail appendThenFail;

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource database;

    @Test
    void aFailureAfterTheAppendRollsBackBothTheOrderAndItsEvent() throws SQLException {
        String customer = "rollback-" + UUID.randomUUID();

        assertThrows(AppendThenFail.RuleViolated.class, () -> appendThenFail.createOrderThenBreakARule(customer));

        assertEquals(0, count("SELECT count(*) FROM orders WHERE customer_id = ?", customer));
        assertEquals(0, count("SELECT count(*) FROM outbox_event WHERE payload->>'customerId' = ?", customer));
    }

    @Test
    void aSuccessfulUseCaseCommitsTheOrderAndItsEventTogether() throws SQLException {
        String customer = "commit-" + UUID.randomUUID();

        Orders.Outcome created = orders.create(customer, List.of(new OrderLine("SKU-1", 1, BigDecimal.ONE)));

        assertEquals(1, count("SELECT count(*) FROM orders WHERE customer_id = ?", customer));
        // committed with the order; the relay running in this server may already have claimed or published it
        assertEquals(1, count("SELECT count(*) FROM outbox_event_state WHERE event_id = ?::uuid"
                + " AND status IN ('PENDING', 'IN_FLIGHT', 'SENT')", created.eventId().toString()));
    }

    @Test
    void anAppendWithoutATransactionIsRefusedAndWritesNothing() throws SQLException {
        String aggregateId = "no-tx-" + UUID.randomUUID();

        TransactionalException refused = assertThrows(TransactionalException.class,
                () -> outbox.append("Order", aggregateId, "OrderCreated", Map.of("orderId", aggregateId)));

        assertTrue(refused.getCause() instanceof jakarta.transaction.TransactionRequiredException,
                "refused for want of a transaction, not for another reason: " + refused);
        assertEquals(0, count("SELECT count(*) FROM outbox_event WHERE aggregate_id = ?", aggregateId));
    }

    private long count(String sql, String parameter) throws SQLException {
        try (Connection connection = database.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}

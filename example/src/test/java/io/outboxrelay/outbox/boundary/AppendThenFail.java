package io.outboxrelay.outbox.boundary;

import io.outboxrelay.example.orders.boundary.Orders;
import io.outboxrelay.example.orders.entity.OrderLine;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.math.BigDecimal;
import java.util.List;

/** A use case that breaks a rule after its event was appended, as real code sometimes does. */
@ApplicationScoped
public class AppendThenFail {

    public static class RuleViolated extends RuntimeException {
        RuleViolated(String message) {
            super(message);
        }
    }

    @Inject
    Orders orders;

    @Transactional
    public void createOrderThenBreakARule(String customerId) {
        orders.create(customerId, List.of(new OrderLine("SKU-1", 3, new BigDecimal("5.00"))));
        throw new RuleViolated("credit limit exceeded for " + customerId);
    }
}

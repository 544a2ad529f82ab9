package io.outboxrelay.example.inventory.boundary;

import io.outboxrelay.consumer.boundary.ReliableConsumer;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.example.schema.SampleSchema;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Keeps {@code inventory_stock.reserved} in step with the orders on {@code order.events}. */
@ApplicationScoped
public class InventoryConsumer {

    public static final String GROUP = "inventory";

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

    /** Runs inside the idempotent transaction. */
    void apply(IncomingEvent event) {
        switch (String.valueOf(event.eventType())) {
            case "OrderCreated" -> lines(event).forEach(line -> reserve(line.getString("sku"), line.getInt("quantity")));
            case "OrderCancelled" -> lines(event).forEach(line -> release(line.getString("sku"), line.getInt("quantity")));
            default -> { } // other order events do not move stock
        }
    }

    private void reserve(String sku, int quantity) {
        em.createNativeQuery("""
                        INSERT INTO inventory_stock (sku, reserved, updated_at) VALUES (?1, ?2, now())
                        ON CONFLICT (sku) DO UPDATE SET reserved = inventory_stock.reserved + EXCLUDED.reserved,
                                                        updated_at = now()""")
                .setParameter(1, sku)
                .setParameter(2, quantity)
                .executeUpdate();
    }

    /** Releasing more than is reserved breaks the table's reserved >= 0 rule and fails the handling. */
    private void release(String sku, int quantity) {
        int updated = em.createNativeQuery(
                        "UPDATE inventory_stock SET reserved = reserved - ?1, updated_at = now() WHERE sku = ?2")
                .setParameter(1, quantity)
                .setParameter(2, sku)
                .executeUpdate();
        if (updated == 0) {
            throw new IllegalStateException("nothing reserved for " + sku + " to release");
        }
    }

    private static List<JsonObject> lines(IncomingEvent event) {
        try (JsonReader reader = Json.createReader(new StringReader(event.payload()))) {
            return reader.readObject().getJsonArray("lines").getValuesAs(JsonObject.class);
        }
    }
}

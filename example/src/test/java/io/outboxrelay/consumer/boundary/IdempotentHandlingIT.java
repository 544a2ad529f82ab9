package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.boundary.IdempotentHandling.Outcome;
import io.outboxrelay.consumer.control.ConsumedEvents;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Inside the server (Arquillian), against the real PostgreSQL: two deliveries of one event
 * handled at the same time have one effect, because the unique key of consumed_event decides.
 */
@ExtendWith(ArquillianExtension.class)
class IdempotentHandlingIT {

    @Deployment
    static WebArchive deployment() {
        return ShrinkWrap.create(WebArchive.class, "idempotent-handling-it.war")
                .addClasses(IdempotentHandling.class, IdempotentHandling.Outcome.class, ConsumedEvents.class,
                        IncomingEvent.class, RecordPlace.class, NotificationRows.class, ConsumerContext.class,
                        OutboxDataSources.class)
                .addAsResource("META-INF/persistence.xml");
    }

    @Inject
    IdempotentHandling idempotent;

    @Inject
    NotificationRows notifications;

    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    @Resource(lookup = "jdbc/outboxNonTx")
    DataSource database;

    @Test
    void twoConcurrentDeliveriesOfOneEventHaveOneEffect() throws Exception {
        IncomingEvent event = new IncomingEvent(UUID.randomUUID(), "OrderCreated", "order-" + UUID.randomUUID(), "{}");
        CountDownLatch secondStarted = new CountDownLatch(1);

        Future<Outcome> first = executor.submit(() -> idempotent.handleOnce("it-group", event, handled -> {
            recordNotification(handled);
            awaitQuietly(secondStarted); // keep this transaction open while the second delivery starts
        }));
        Future<Outcome> second = executor.submit(() -> {
            secondStarted.countDown();
            return idempotent.handleOnce("it-group", event, this::recordNotification);
        });

        List<Outcome> outcomes = List.of(first.get(60, TimeUnit.SECONDS), second.get(60, TimeUnit.SECONDS));
        assertEquals(1, outcomes.stream().filter(outcome -> outcome == Outcome.HANDLED).count(), outcomes.toString());
        assertEquals(1, outcomes.stream().filter(outcome -> outcome == Outcome.DUPLICATE).count(), outcomes.toString());
        assertEquals(1, count("SELECT count(*) FROM notification WHERE event_id = ?::uuid", event.eventId()));
        assertEquals(1, count("SELECT count(*) FROM consumed_event WHERE event_id = ?::uuid", event.eventId()));
        assertEquals(1, count("SELECT duplicates FROM consumed_event WHERE event_id = ?::uuid", event.eventId()),
                "the skipped delivery is counted");
    }

    @Test
    void aFailingHandlerLeavesNoMarkSoTheEventCanBeHandledLater() throws Exception {
        IncomingEvent event = new IncomingEvent(UUID.randomUUID(), "OrderCreated", "order-x", "{}");

        Future<Object> failed = executor.submit(() -> {
            try {
                return idempotent.handleOnce("it-group", event, handled -> {
                    recordNotification(handled);
                    throw new IllegalStateException("downstream unavailable");
                });
            } catch (IllegalStateException expected) {
                return expected;
            }
        });
        assertEquals("downstream unavailable", ((Exception) failed.get(60, TimeUnit.SECONDS)).getMessage());
        assertEquals(0, count("SELECT count(*) FROM consumed_event WHERE event_id = ?::uuid", event.eventId()));

        assertEquals(Outcome.HANDLED, executor.submit(() -> idempotent.handleOnce("it-group", event, this::recordNotification))
                .get(60, TimeUnit.SECONDS));
        assertEquals(1, count("SELECT count(*) FROM notification WHERE event_id = ?::uuid", event.eventId()));
    }

    private void recordNotification(IncomingEvent event) {
        notifications.insert(event);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private long count(String sql, UUID eventId) throws Exception {
        try (Connection connection = database.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, eventId.toString());
            try (ResultSet result = statement.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}

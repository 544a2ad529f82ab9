package io.outboxrelay.relay.boundary;

import io.outboxrelay.database.control.OutboxDataSources;
import io.outboxrelay.outbox.boundary.Outbox;
import io.outboxrelay.time.Backoff;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * Wakes this server's relay when any server commits an append: it holds one connection that LISTENs on
 * {@link Outbox#NOTIFY_CHANNEL} and passes every notification on as a wake-up. The relay then keeps
 * claiming while rows keep coming (waiting on notifications alone is slower than polling at high rates),
 * so a notification only ends the relay's idleness. When the connection breaks (a database restart) it
 * listens again after a capped backoff; the relay's poll covers the gap.
 */
final class RelayListener implements Runnable {

    private static final Logger LOG = Logger.getLogger(RelayListener.class.getName());
    /** How long one wait for notifications lasts, so that a stop is noticed within it. */
    private static final int WAIT_MILLIS = 1_000;

    private final OutboxDataSources dataSources;
    private final Runnable wake;
    private final Backoff reconnect = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 0.1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;

    RelayListener(OutboxDataSources dataSources, Runnable wake) {
        this.dataSources = dataSources;
        this.wake = wake;
    }

    @Override
    public void run() {
        int failures = 0;
        while (!stopping) {
            try {
                listen(() -> !stopping);
            } catch (LinkageError noDriverClasses) {
                LOG.warning(() -> "Relay cannot listen for appends of other servers: the PostgreSQL driver's classes are"
                        + " not visible to the application (give it the driver's library, see the docs); polling only");
                return;
            } catch (SQLException | RuntimeException broken) {
                failures++;
                if (failures == 1) {
                    LOG.warning(() -> "Relay stopped listening for appends of other servers (" + broken
                            + "); polling covers the gap, listening again shortly");
                }
                if (awaitStop(reconnect.delay(failures, java.util.concurrent.ThreadLocalRandom.current()::nextDouble))) {
                    return;
                }
                continue;
            }
            failures = 0;
        }
    }

    private void listen(BooleanSupplier running) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection()) {
            PGConnection postgres = connection.unwrap(PGConnection.class);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + Outbox.NOTIFY_CHANNEL);
            }
            wake.run(); // whatever was committed while nobody listened
            while (running.getAsBoolean()) {
                PGNotification[] notifications = postgres.getNotifications(WAIT_MILLIS);
                if (notifications != null && notifications.length > 0) {
                    wake.run();
                }
            }
        }
    }

    void stop() {
        stopping = true;
        stopped.countDown();
    }

    /** Waits out a backoff; true when the listener was stopped meanwhile. */
    private boolean awaitStop(Duration delay) {
        try {
            return stopped.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return true;
        }
    }
}

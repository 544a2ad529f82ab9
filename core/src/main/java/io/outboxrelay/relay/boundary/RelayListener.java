package io.outboxrelay.relay.boundary;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.outbox.control.RelayNotification;
import io.outboxrelay.time.Backoff;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Wakes this server's relay when any server commits an append: it holds one connection that LISTENs on
 * {@link RelayNotification#CHANNEL} and passes every notification on as a wake-up. The relay then keeps
 * claiming while rows keep coming (waiting on notifications alone is slower than polling at high rates),
 * so a notification only ends the relay's idleness. When the connection breaks (a database restart) it
 * listens again after a capped backoff; the relay's poll covers the gap.
 */
final class RelayListener implements Runnable {

    private static final Logger LOG = Logger.getLogger(RelayListener.class.getName());
    /** How long one wait for notifications lasts, so that a stop is noticed within it. */
    private static final int WAIT_MILLIS = 1_000;
    /** Waits between checks that the connection still answers: a half-open connection just stays silent. */
    private static final int WAITS_PER_CHECK = 15;

    private final OutboxDataSources dataSources;
    private final Runnable wake;
    private final Backoff reconnect = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 0.1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean stopping;
    private int failures;

    RelayListener(OutboxDataSources dataSources, Runnable wake) {
        this.dataSources = dataSources;
        this.wake = wake;
    }

    @Override
    public void run() {
        try {
            while (!stopping) {
                try {
                    listen();
                } catch (NotPostgres notPostgres) {
                    LOG.warning(() -> "Relay cannot listen for other servers' appends (" + notPostgres.getMessage()
                            + "); it publishes them at its poll");
                    return;
                } catch (LinkageError noDriverClasses) {
                    LOG.warning(() -> "Relay cannot listen for other servers' appends: the PostgreSQL driver's classes"
                            + " are not visible to the application (give it the driver's library); it publishes them"
                            + " at its poll");
                    return;
                } catch (SQLException | RuntimeException broken) {
                    failures++;
                    if (failures == 1) {
                        LOG.warning(() -> "Relay stopped listening for other servers' appends (" + broken
                                + "); its poll covers the gap, listening again shortly");
                    }
                    if (awaitStop(reconnect.delay(failures, ThreadLocalRandom.current()::nextDouble))) {
                        return;
                    }
                }
            }
        } finally {
            finished.countDown();
        }
    }

    private void listen() throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection()) {
            PGConnection postgres = postgres(connection);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + RelayNotification.CHANNEL);
            }
            try {
                if (failures > 0) {
                    LOG.info("Relay listens for other servers' appends again");
                    failures = 0;
                }
                wake.run(); // whatever was committed while nobody listened
                for (int waits = 1; !stopping; waits++) {
                    PGNotification[] notifications = postgres.getNotifications(WAIT_MILLIS);
                    if (notifications != null && notifications.length > 0) {
                        wake.run();
                    }
                    if (waits % WAITS_PER_CHECK == 0 && !connection.isValid(5)) {
                        throw new SQLException("the listening connection no longer answers", "08006");
                    }
                }
            } finally {
                unlisten(connection); // the connection goes back to the pool: it must not keep collecting notifications
            }
        }
    }

    private static PGConnection postgres(Connection connection) throws SQLException {
        try {
            return connection.unwrap(PGConnection.class);
        } catch (SQLException | LinkageError notTheDriver) {
            throw new NotPostgres("its data source is not PostgreSQL's driver, or the driver's classes are not visible"
                    + " to the application (give it the driver's library): " + notTheDriver);
        }
    }

    private static void unlisten(Connection connection) {
        try (Statement unlisten = connection.createStatement()) {
            unlisten.execute("UNLISTEN *");
        } catch (SQLException brokenAnyway) {
            // a broken connection is discarded by the pool, subscription and all
        }
    }

    void stop() {
        stopping = true;
        stopped.countDown();
    }

    /** Waits until the listener has let go of its connection, at most {@code patience}. */
    void awaitFinished(Duration patience) {
        try {
            finished.await(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
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

    /** Listening is impossible with this data source at all; retrying would not help. */
    private static final class NotPostgres extends RuntimeException {
        NotPostgres(String message) {
            super(message);
        }
    }
}

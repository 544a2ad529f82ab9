package io.outboxrelay.outbox.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells the relays of every server that events were committed, once per transaction that appended, after it
 * committed: this server's own relay in-process ({@link #wakeHere}), the others by a {@code NOTIFY} on {@link #CHANNEL}
 * that each relay LISTENs on. The notification is sent after the commit and on a connection of its own, not inside
 * the business transaction: PostgreSQL cannot prepare a transaction that has notified, so a notification inside
 * would fail every two-phase commit (a host that also sends JMS, say). One server sends one notification at a time,
 * from a managed thread: the commits made while one is on its way share the next. PostgreSQL serialises the commits
 * of notifying transactions, so one notification per commit would cap a busy server's writers at what one lock
 * allows, and the committing thread would wait for it. Should the notification be lost (the server dies right after
 * the commit, the database refuses), the relays' poll finds the rows. {@code outbox.notify=false} leaves it out;
 * CDC and Connect modes ({@code outbox.publisher=cdc|connect}) leave out both, as no relay claims fresh events there.
 */
@ApplicationScoped
public class RelayNotification {

    /** The channel relays listen on. */
    public static final String CHANNEL = "outbox_relay";

    private static final Logger LOG = Logger.getLogger(RelayNotification.class.getName());
    /** Marks a transaction whose commit will notify, so several appends in it notify once. */
    private static final Object REGISTERED = new Object();

    @Resource
    TransactionSynchronizationRegistry transactions;

    @Resource
    ManagedExecutorService executor;

    @Inject
    OutboxDataSources dataSources;

    @Inject
    @ConfigProperty(name = "outbox.notify", defaultValue = "true")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "outbox.publisher", defaultValue = "polling")
    String publisher;

    private CoalescingSignal notifications;
    /** Whether a relay claims fresh events ({@code outbox.publisher=polling}): else nobody is to be woken. */
    private boolean polling;
    /** This server's relay, woken on the committing thread; null while none runs here. */
    private volatile Runnable relayHere;

    @PostConstruct
    void start() {
        notifications = new CoalescingSignal(executor, this::send);
        polling = "polling".equalsIgnoreCase(publisher.trim());
    }

    /**
     * The relay of this server, to be woken directly after each commit that appended (it must return at once); null
     * when it stops. Directly, not through a container's proxy or a transactional CDI observer per event: those took
     * a few percent of the orders API's time in a profile (2026-12-06).
     */
    public void wakeHere(Runnable relay) {
        relayHere = relay;
    }

    /** Called inside the appending transaction; the relays are told when (and only if) it commits. */
    public void afterCommit() {
        if (!polling || transactions.getResource(REGISTERED) != null) {
            return;
        }
        transactions.putResource(REGISTERED, Boolean.TRUE);
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // nothing to do before the commit
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    wakeRelayHere();
                    if (enabled) {
                        notifyLater();
                    }
                }
            }
        });
    }

    private void wakeRelayHere() {
        Runnable relay = relayHere;
        if (relay != null) {
            try {
                relay.run();
            } catch (RuntimeException failed) { // the commit stands; the relay's poll finds its events
                LOG.log(Level.FINE, "Could not wake this server's relay after a commit; its poll will find the events",
                        failed);
            }
        }
    }

    private void notifyLater() {
        try {
            notifications.raise();
        } catch (RejectedExecutionException stopping) {
            LOG.log(Level.FINE, "Could not notify the relays of a commit (the application is stopping); their poll will"
                    + " find its events", stopping);
        }
    }

    private void send() {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             Statement notify = connection.createStatement()) {
            notify.execute("NOTIFY " + CHANNEL);
        } catch (SQLException | RuntimeException failed) {
            LOG.log(Level.FINE, "Could not notify the relays of a commit; their poll will find its events", failed);
        }
    }
}

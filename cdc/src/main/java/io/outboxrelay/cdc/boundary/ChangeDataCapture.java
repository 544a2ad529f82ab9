package io.outboxrelay.cdc.boundary;

import io.outboxrelay.cdc.control.ChangeStream;
import io.outboxrelay.cdc.control.EngineLoader;
import io.outboxrelay.cdc.control.EngineProperties;
import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.relay.boundary.RelaySettings;
import io.outboxrelay.relay.boundary.StreamPublisher;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * CDC mode ({@code outbox.publisher=cdc}): streams the outbox's inserts from the write-ahead log and has the relay
 * publish them. One server streams at a time, the one holding a PostgreSQL advisory lock named after the slot (a
 * slot serves one reader); the others wait to take over when it stops or dies. The engine restarts after an
 * error from the last acknowledged position. A server with {@code outbox.relay.enabled=false} never streams.
 */
@Startup
@Singleton(name = "OutboxRelayChangeDataCapture")
@DependsOn("OutboxRelay")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ChangeDataCapture {

    private static final Logger LOG = Logger.getLogger(ChangeDataCapture.class.getName());
    private static final String LOCK = "hashtextextended('outbox-relay-cdc/' || ?, 0)";
    private static final Duration ENGINE_CHECK = Duration.ofSeconds(1);
    private static final Duration LOCK_CHECK = Duration.ofSeconds(5);
    private static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

    @Resource
    ManagedThreadFactory threads;

    @Inject
    RelaySettings relaySettings;

    @Inject
    CdcSettings settings;

    @Inject
    OutboxDataSources dataSources;

    @Inject
    StreamPublisher publisher;

    private final CountDownLatch stopping = new CountDownLatch(1);
    private Thread leader;

    @PostConstruct
    void start() {
        if (relaySettings.publisher() != RelaySettings.Publisher.CDC) {
            return;
        }
        if (!relaySettings.enabled()) {
            LOG.info("CDC mode, but this server does not relay (outbox.relay.enabled=false): it does not stream");
            return;
        }
        leader = threads.newThread(this::lead);
        leader.setName("outbox-relay-cdc-leader");
        leader.start();
    }

    @PreDestroy
    void stop() {
        stopping.countDown();
        if (leader != null) {
            try {
                leader.join(Duration.ofSeconds(90).toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Until the server stops: takes the stream's lock when it is free, and streams while it holds it. */
    private void lead() {
        EngineLoader engine;
        try {
            engine = EngineLoader.unpack();
        } catch (Exception e) {
            LOG.severe(() -> "CDC mode cannot load Debezium's engine; only the polling relay publishes: " + e);
            return;
        }
        try {
            leadWith(engine);
        } finally {
            try {
                ChangeStream.unload(engine);
                engine.close();
            } catch (Exception e) {
                LOG.warning(() -> "Could not unload Debezium's engine: " + e);
            }
        }
    }

    /**
     * Streams whenever this server holds the lock. After a failure it waits {@code outbox.cdc.restart-ms}, twice as
     * long after each further one in a row (at most {@link #LONGEST_WAIT}), and logs the cause in full only the
     * first time: a stream that cannot start (no {@code wal_level=logical}, no {@code REPLICATION}) says so once.
     */
    private void leadWith(EngineLoader engine) {
        int failures = 0;
        while (stopping.getCount() > 0) {
            long started = System.nanoTime();
            String failure;
            try (Connection lock = dataSources.nonTransactional().getConnection()) {
                if (!lock(lock, "pg_try_advisory_lock")) {
                    await(settings.restartDelay()); // another server streams
                    continue;
                }
                try {
                    failure = stream(engine, lock);
                } finally {
                    lock(lock, "pg_advisory_unlock"); // the connection goes back to the pool
                }
            } catch (Exception e) {
                failure = e.toString();
                if (failures == 0) {
                    LOG.log(Level.WARNING, e, () -> "Change stream (slot " + settings.slot() + ") stopped");
                }
            }
            if (failure == null) {
                continue; // stopping, or the lock's connection was lost: ask for the lock again at once
            }
            failures = Duration.ofNanos(System.nanoTime() - started).compareTo(LONGEST_WAIT) > 0 ? 1 : failures + 1;
            Duration wait = settings.restartDelay().multipliedBy(1L << Math.min(failures - 1, 10));
            Duration delay = wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
            String why = failure;
            int inARow = failures;
            LOG.warning(() -> "Change stream (slot " + settings.slot() + ") failed (" + inARow + " in a row): " + why
                    + "; streaming again in " + delay.toMillis() + " ms");
            await(delay);
        }
    }

    /** Streams until the server stops (null), the engine fails (why) or the lock's connection is lost (null). */
    private String stream(EngineLoader engine, Connection lock) throws Exception {
        EngineProperties.Address dataSource = EngineProperties.Address.of(lock.getMetaData().getURL());
        EngineProperties.Source source = new EngineProperties.Source(settings.host().orElse(dataSource.host()),
                settings.port().orElse(dataSource.port()), settings.database().orElse(dataSource.database()),
                settings.user().orElse(lock.getMetaData().getUserName()), settings.password(), schema(lock),
                settings.slot(), settings.publication(), settings.batchSize());
        forgetOffsetsWithoutSlot(lock);
        LOG.info(() -> "Streaming the outbox's inserts from slot " + settings.slot() + " (publication "
                + settings.publication() + ", " + source.schema() + ".outbox_event)");
        try (ChangeStream stream = ChangeStream.start(engine, EngineProperties.of(source, settings.engineOverrides()),
                publisher, threads)) {
            long checked = System.nanoTime();
            while (!stopping.await(ENGINE_CHECK.toMillis(), TimeUnit.MILLISECONDS)) {
                if (stream.awaitEnd(Duration.ZERO)) {
                    return stream.failure().orElse("the engine stopped");
                }
                if (System.nanoTime() - checked > LOCK_CHECK.toNanos()) {
                    checked = System.nanoTime();
                    if (!lock.isValid(5)) {
                        LOG.warning("Lost the connection that holds the change stream's lock: stopping the stream");
                        return null;
                    }
                }
            }
            return null;
        }
    }

    /**
     * Stored offsets name a position in a slot; without the slot (never created, or dropped after switching back to
     * polling) they name nothing, and the new slot starts where the WAL is now. What was appended meanwhile is the
     * polling relay's (after the handover).
     */
    private void forgetOffsetsWithoutSlot(Connection connection) throws SQLException {
        try (PreparedStatement forget = connection.prepareStatement("""
                DELETE FROM outbox_cdc_offset
                 WHERE engine = ? AND NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = ?)""")) {
            forget.setString(1, settings.slot());
            forget.setString(2, settings.slot());
            if (forget.executeUpdate() > 0) {
                LOG.info(() -> "Slot " + settings.slot() + " does not exist: its stored offsets were dropped; it is"
                        + " created where the write-ahead log is now");
            }
        }
    }

    private boolean lock(Connection connection, String function) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT " + function + "(" + LOCK + ")")) {
            lock.setString(1, settings.slot());
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private static String schema(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT current_schema()");
             ResultSet result = query.executeQuery()) {
            result.next();
            return result.getString(1);
        }
    }

    private void await(Duration delay) {
        try {
            stopping.await(delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopping.countDown();
        }
    }
}

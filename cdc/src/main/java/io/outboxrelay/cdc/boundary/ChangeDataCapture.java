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
    private static final Duration LEADER_CHECK = Duration.ofSeconds(5);

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

    private void leadWith(EngineLoader engine) {
        while (stopping.getCount() > 0) {
            try (Connection lock = dataSources.nonTransactional().getConnection()) {
                if (lock(lock, "pg_try_advisory_lock")) {
                    try {
                        stream(engine, lock);
                    } finally {
                        lock(lock, "pg_advisory_unlock"); // the connection goes back to the pool
                    }
                }
            } catch (Exception e) {
                LOG.log(java.util.logging.Level.WARNING, e, () -> "Change stream (slot " + settings.slot() + ") stopped;"
                        + " streaming again in " + settings.restartDelay().toMillis() + " ms");
            }
            await(settings.restartDelay());
        }
    }

    private void stream(EngineLoader engine, Connection lock) throws Exception {
        EngineProperties.Address dataSource = EngineProperties.Address.of(lock.getMetaData().getURL());
        EngineProperties.Source source = new EngineProperties.Source(settings.host().orElse(dataSource.host()),
                settings.port().orElse(dataSource.port()), settings.database().orElse(dataSource.database()),
                settings.user().orElse(lock.getMetaData().getUserName()), settings.password(), schema(lock),
                settings.slot(), settings.publication(), settings.batchSize());
        LOG.info(() -> "Streaming the outbox's inserts from slot " + settings.slot() + " (publication "
                + settings.publication() + ", " + source.schema() + ".outbox_event)");
        try (ChangeStream stream = ChangeStream.start(engine, EngineProperties.of(source, settings.engineOverrides()),
                publisher, threads)) {
            while (stopping.getCount() > 0) {
                if (stream.awaitEnd(LEADER_CHECK)) {
                    stream.failure().ifPresent(why -> LOG.warning(() -> "Change stream failed: " + why));
                    return;
                }
                if (!lock.isValid(5)) {
                    LOG.warning("Lost the connection that holds the change stream's lock: stopping the stream");
                    return;
                }
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

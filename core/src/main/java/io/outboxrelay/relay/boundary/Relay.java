package io.outboxrelay.relay.boundary;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.kafka.boundary.KafkaSettings;
import io.outboxrelay.outbox.boundary.RelayWakeUps;
import io.outboxrelay.relay.control.EventPublisher;
import io.outboxrelay.relay.control.InstanceClaim;
import io.outboxrelay.relay.control.RelayConnections;
import io.outboxrelay.relay.control.RelayRound;
import io.outboxrelay.relay.control.RelayStore;
import io.outboxrelay.relay.control.SendWindow;
import io.outboxrelay.relay.control.TableStatistics;
import io.outboxrelay.time.OutboxClock;
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
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.inject.Inject;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Starts the relay's workers when the application starts (after the schema migration) and
 * stops them when it stops: the round in flight finishes, then every lease still held is
 * released so another server can take the rows at once. {@code outbox.relay.enabled=false}
 * keeps this server from relaying. Besides its poll, the relay wakes when this server commits an
 * append and, through PostgreSQL's LISTEN/NOTIFY, when any other server does
 * ({@code outbox.relay.listen}).
 */
@Startup
@Singleton(name = "OutboxRelay")
@DependsOn("OutboxRelaySchemaMigration")
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class Relay {

    private static final Logger LOG = Logger.getLogger(Relay.class.getName());

    @Resource
    ManagedScheduledExecutorService executor;

    @Resource
    ManagedThreadFactory threads;

    @Inject
    OutboxDataSources dataSources;

    @Inject
    RelaySettings settings;

    @Inject
    RelayRound round;

    @Inject
    RelayStore store;

    @Inject
    RelayConnections connections;

    @Inject
    EventPublisher publisher;

    @Inject
    InstanceClaim instance;

    @Inject
    TableStatistics statistics;

    @Inject
    KafkaSettings kafka;

    @Inject
    RelayWakeUps wakeUps;

    @Inject
    RelayHeartbeat heartbeat;

    @Inject
    @OutboxClock
    Clock clock;

    private final List<RelayWorker> workers = new ArrayList<>();
    private final List<ScheduledFuture<?>> polls = new ArrayList<>();
    private RelayListener listener;
    private ConnectProgress connectProgress;

    @PostConstruct
    void start() {
        if (!settings.enabled()) {
            LOG.info("Relay disabled on this server (outbox.relay.enabled=false)");
            return;
        }
        Duration landing = publisher.landingBound();
        if (SendWindow.width(settings.lease(), landing).compareTo(Duration.ZERO) <= 0) {
            throw new IllegalStateException("outbox.relay.lease-ms (" + settings.lease().toMillis() + ") must exceed the relay"
                    + " producer's max.block.ms + delivery.timeout.ms (" + landing.toMillis() + ") by more than a second:"
                    + " a record sent late in a round could otherwise land after its lease ran out and after the next"
                    + " event of its aggregate, published by the relay that took the rows over");
        }
        if (settings.publisher() == RelaySettings.Publisher.CDC && !cdcModuleDeployed()) {
            LOG.warning("outbox.publisher=cdc, but the application has no outbox-relay-cdc jar: nothing streams, and"
                    + " the polling relay publishes each event only after outbox.cdc.handover-ms ("
                    + settings.handover().toMillis() + " ms)");
        }
        long statisticsCheck = statistics.checkInterval().toMillis();
        polls.add(executor.scheduleWithFixedDelay(statistics::refreshIfStale, statisticsCheck, statisticsCheck,
                TimeUnit.MILLISECONDS));
        if (settings.publisher() == RelaySettings.Publisher.CONNECT) {
            followConnect();
            return;
        }
        for (int i = 0; i < settings.workers(); i++) {
            RelayWorker worker = new RelayWorker(settings.instanceId() + "#" + i, round, executor, connections::open,
                    settings.pipelined(), settings.batchSize(), settings.gather());
            workers.add(worker);
            long poll = settings.pollInterval().toMillis();
            polls.add(executor.scheduleWithFixedDelay(worker::drain, 0, poll, TimeUnit.MILLISECONDS));
        }
        wakeUps.relayHere(this::wake); // this instance, not the container's proxy: woken on every committing thread
        if (settings.listen()) {
            listener = new RelayListener(dataSources, this::wake);
            Thread thread = threads.newThread(listener);
            thread.setName("outbox-relay-listener");
            thread.start();
        }
        LOG.info(() -> "Relay started: " + workers.size() + " worker(s) as " + settings.instanceId()
                + ", batch " + settings.batchSize() + (settings.pipelined() ? " (pipelined)" : "")
                + (settings.gather().isZero() ? "" : ", gathering " + settings.gather().toMillis() + " ms after a small batch")
                + ", ordering " + settings.ordering()
                + (settings.publisher() == RelaySettings.Publisher.CDC ? ", CDC mode: taking what the change stream"
                        + " leaves for " + settings.handover().toMillis() + " ms, polling every "
                        + settings.pollInterval().toMillis() + " ms" : "")
                + (listener == null ? ", not listening for other servers' appends" : ", listening for appends"));
    }

    /**
     * Connect mode: a Kafka Connect worker publishes, so this server claims nothing (no worker, no listener, no
     * safety net: anything it published would be published twice) and only records what the connector published.
     */
    private void followConnect() {
        String groupId = settings.connectGroupId();
        connectProgress = new ConnectProgress(() -> ConnectProgress.consumerProperties(
                kafka.clientProperties("connect-progress"), groupId), settings.connectTopics(), store, clock,
                heartbeat::beat);
        Thread thread = threads.newThread(connectProgress);
        thread.setName("outbox-relay-connect-progress");
        thread.start();
        LOG.info(() -> "Relay in Connect mode: Kafka Connect publishes; this server claims nothing and marks SENT what"
                + " it finds on topics matching " + settings.connectTopics() + " (group " + groupId + ")");
    }

    private static boolean cdcModuleDeployed() {
        try {
            Class.forName("io.outboxrelay.cdc.boundary.ChangeDataCapture", false, Relay.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }

    /**
     * Publishes now rather than at the next poll; cheap to call often. In CDC mode the change stream publishes
     * what was just appended, so waking the relay would only run a claim that finds nothing.
     */
    public void wake() {
        if (settings.publisher() == RelaySettings.Publisher.POLLING) {
            workers.forEach(RelayWorker::wake);
        }
    }

    @PreDestroy
    void stop() {
        wakeUps.relayHere(null);
        if (connectProgress != null) {
            connectProgress.stop();
            connectProgress.awaitFinished(Duration.ofSeconds(10));
        }
        if (listener != null) {
            listener.stop();
            listener.awaitFinished(java.time.Duration.ofSeconds(5));
        }
        polls.forEach(poll -> poll.cancel(false));
        workers.forEach(RelayWorker::stop);
        // a round waits at most one send timeout for its batch, one for an isolated suspect and one for dead
        // letters; pipelined, a second batch may land after the first
        long grace = (settings.pipelined() ? 6 : 3) * settings.sendTimeout().toMillis() + 5_000;
        for (RelayWorker worker : workers) {
            worker.awaitIdle(grace);
            try {
                int released = store.releaseAll(worker.owner());
                if (released > 0) {
                    LOG.info(() -> "Relay stopping: released " + released + " leased row(s) of " + worker.owner());
                }
            } catch (java.sql.SQLException e) {
                LOG.warning(() -> "Relay stopping: could not release the leases of " + worker.owner()
                        + "; they expire on their own: " + e.getMessage());
            }
        }
        instance.release();
    }
}

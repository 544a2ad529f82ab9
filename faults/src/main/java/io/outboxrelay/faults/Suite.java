package io.outboxrelay.faults;

import java.io.IOException;
import java.net.http.HttpClient;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What every scenario works with: the mode, the stack, the servers it may start, and the ledger. */
final class Suite {

    /**
     * Settings of every server the suite starts. All product defaults but the lease, 15 s instead of 60 s so
     * that a surviving server takes over a killed one's rows within a quick run, and the relay producer's
     * timeouts, which a lease must outlast (a record handed over may take max.block.ms + delivery.timeout.ms
     * to land): 2 s + 8 s instead of 5 s + 25 s. The broker outage lasts longer than that delivery timeout, so the
     * relay's outage path (probe, pause, resume) is what they exercise.
     */
    static final List<String> JVM_OPTIONS = List.of("-Doutbox.relay.lease-ms=15000",
            "-Doutbox.relay.producer.max.block.ms=2000", "-Doutbox.relay.producer.request.timeout.ms=4000",
            "-Doutbox.relay.producer.delivery.timeout.ms=8000");
    static final Duration SERVER_START = Duration.ofMinutes(3);

    final Mode mode;
    /** {@code polling} or {@code cdc}: the {@code outbox.publisher} of every server the suite starts. */
    final String publisher;
    final Stack stack;
    final Installation installation;
    final Ledger ledger;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final String runId;
    private final List<Server> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Server primary;

    Suite(Mode mode, String publisher, Stack stack, Installation installation, String runId) {
        this.mode = mode;
        this.publisher = publisher;
        this.stack = stack;
        this.installation = installation;
        this.runId = runId;
        this.ledger = new Ledger(stack.dbUrl(), stack.dbUser(), stack.dbPassword(), stack.bootstrap());
    }

    /** A run's tag: the customer id of its orders and the prefix of their SKUs, unique to this run of the suite. */
    String tag(String scenario) {
        return "f" + runId + "-" + scenario;
    }

    /** The server most scenarios use, started on first use. */
    Server primary() throws IOException {
        if (primary == null) {
            primary = startServer("faults-a", Map.of());
        }
        return primary;
    }

    Server startServer(String name, Map<String, String> settings, String... jvmOptions) throws IOException {
        Server server = server(name, settings, jvmOptions);
        server.startAndAwaitReady(SERVER_START);
        return server;
    }

    /** A server laid out but not started; stopped with the others at the end. */
    Server server(String name, Map<String, String> settings, String... jvmOptions) throws IOException {
        List<String> options = new java.util.ArrayList<>(JVM_OPTIONS);
        options.addAll(List.of(jvmOptions));
        Map<String, String> all = new java.util.LinkedHashMap<>(Map.of("OUTBOX_PUBLISHER", publisher));
        all.putAll(settings);
        Server server = Server.create(name, installation, stack.serverEnv(), all, options);
        started.add(server);
        return server;
    }

    boolean cdc() {
        return "cdc".equals(publisher);
    }

    /** How long a run may take to publish and consume everything once its writer is done. */
    Duration settlePatience() {
        return mode == Mode.QUICK ? Duration.ofMinutes(4) : Duration.ofMinutes(15);
    }

    /** How long a writer may take for its orders, outages included. */
    Duration writePatience(int orders) {
        return Duration.ofSeconds(orders / mode.ratePerSecond * 4L + 300);
    }

    /** Waits until the run has settled, then counts it into the result with the promises every order scenario keeps. */
    Result settleAndCount(Result result, String tag, OrderLoad load) throws SQLException {
        try {
            ledger.awaitSettled(tag, settlePatience());
        } catch (org.awaitility.core.ConditionTimeoutException unsettled) {
            Ledger.Counts now = ledger.database(tag);
            result.expect(false, "not settled within " + settlePatience().toMinutes() + " min: " + now.pending()
                    + " events pending, " + now.consumed() + " of " + now.sent() + " sent events consumed");
        }
        Ledger.Counts db = ledger.database(tag);
        Ledger.Topic topic = ledger.topic(tag);
        long missing = ledger.missingOrders(tag, load.acceptedIds()).size();
        return result.orders(load, db, topic, missing);
    }

    /** Stops every server the suite started that still runs (also when the suite itself is stopped). */
    void stopAll() throws InterruptedException {
        for (Server server : started) {
            server.stop();
        }
    }
}

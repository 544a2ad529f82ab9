package io.outboxrelay.faults;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Scenario 4: two servers on one database and one Kafka. In a clean run under load through both,
 * no event may be published twice. Then one server is killed under load while it holds leased
 * rows: the other takes them over (after the lease runs out) and nothing is lost; in CDC mode the killed server
 * is the one that streams, so the other also takes the stream over.
 */
final class ScaleOut {

    /**
     * Server b's producer waits this long before sending a batch, so its rows stay leased long
     * enough for the kill to catch some (at this load a round otherwise takes milliseconds).
     */
    private static final String B_LINGER = "-Doutbox.relay.producer.linger.ms=2000";
    private static final int MOST_PAUSES = 20;
    /** What a server in CDC mode logs when it took the stream's lock and streams. */
    private static final String STREAMING = "Streaming the outbox's inserts";

    static List<Result> run(Suite suite) throws Exception {
        Server a = suite.primary();
        Server b = suite.cdc() ? streamingSecond(suite, a) : suite.startServer("faults-b", Map.of(), B_LINGER);
        try {
            return List.of(clean(suite, a, b), takeover(suite, a, b));
        } finally {
            b.stop();
        }
    }

    private static Result clean(Suite suite, Server a, Server b) throws Exception {
        Result result = new Result("4a scale-out: two servers, clean run");
        String tag = suite.tag("twoservers");
        int orders = suite.mode.orders;
        long aBefore = a.publishedSinceStart(suite.http);
        long bBefore = b.publishedSinceStart(suite.http);
        try (OrderLoad load = OrderLoad.start(tag, List.of(a, b), orders, suite.mode.ratePerSecond)) {
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
        }
        result.count("published by server a", a.publishedSinceStart(suite.http) - aBefore);
        result.count("published by server b", b.publishedSinceStart(suite.http) - bBefore);
        result.expect(result.counts().get("duplicated") == 0, "events were published twice in a clean run");
        return result;
    }

    private static Result takeover(Suite suite, Server a, Server b) throws Exception {
        Result result = new Result("4b scale-out: one of two killed");
        String tag = suite.tag("takeover");
        int orders = suite.mode.orders;
        try (OrderLoad load = OrderLoad.start(tag, List.of(a, b), orders, suite.mode.ratePerSecond)) {
            load.awaitAccepted(orders / 2, suite.writePatience(orders));
            long pid = b.pid();
            // b is frozen before it is killed, and killed only while it holds leases: between a look that saw
            // some and the kill, its round could otherwise end and leave none to take over
            for (int tries = 1; ; tries++) {
                Waits.until("server b to hold leased rows", Duration.ofMinutes(1), Duration.ofMillis(20),
                        () -> leasedBy(suite, pid) > 0);
                b.pause();
                if (leasedBy(suite, pid) > 0 || tries == MOST_PAUSES) {
                    break;
                }
                b.resume();
            }
            b.kill();
            long leased = leasedBy(suite, pid);
            result.count("rows leased by the killed server", leased);
            result.expect(leased > 0, "server b held no leased rows when it was killed: no takeover was tested");
            long killedAt = System.nanoTime();
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
            result.fact("everything published and consumed", String.format("%.1f s after the kill (lease %s)",
                    (System.nanoTime() - killedAt) / 1e9, Suite.JVM_OPTIONS.get(0)));
            result.fact("server b", "relays with " + B_LINGER + ", so the kill finds rows in its lease"
                    + (suite.cdc() ? "; it streams (started before a), so a takes the stream over" : ""));
        }
        return result;
    }

    /**
     * In CDC mode one server streams at a time (the first to take the stream's lock) and the other leases only what the
     * stream left for the safety net, so b has to be the one that streams for its kill to find leases: a stops, b
     * starts and takes the lock, then a starts again and waits for it. The kill then also tests the stream's takeover.
     */
    private static Server streamingSecond(Suite suite, Server a) throws Exception {
        a.stop();
        Server b = suite.startServer("faults-b", Map.of(), B_LINGER);
        Waits.until("server b to stream", Duration.ofMinutes(2), Duration.ofMillis(250),
                () -> Files.exists(b.messagesLog()) && Files.readString(b.messagesLog()).contains(STREAMING));
        a.startAndAwaitReady(Suite.SERVER_START);
        return b;
    }

    /** Unsent rows with a live lease of the server with this pid (lease owners start with "pid@host"). */
    private static long leasedBy(Suite suite, long pid) throws SQLException {
        try (Connection connection = suite.ledger.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT count(*) FROM outbox_unsent"
                        + " WHERE status = 'PENDING' AND lease_until > now() AND lease_owner LIKE ?")) {
            query.setString(1, pid + "@%");
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private ScaleOut() {
    }
}

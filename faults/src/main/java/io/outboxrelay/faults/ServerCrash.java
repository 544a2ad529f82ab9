package io.outboxrelay.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Scenario 1: orders are written while the server is killed with SIGKILL several times at random
 * moments and restarted. Nothing accepted may be lost; Kafka may hold duplicates (a batch published
 * but not yet marked SENT when the server died), at most the in-flight batches; the idempotent
 * inventory consumer must apply every order exactly once.
 */
final class ServerCrash {

    /**
     * Events one relay worker can have published but not yet marked: two batches of the default size, as
     * the worker claims and sends the next batch while the one before waits for its acknowledgements.
     */
    private static final int IN_FLIGHT_PER_KILL = 2 * 500;
    /** In CDC mode a kill may also catch the change stream's batch (outbox.cdc.batch-size) between its send and its mark. */
    private static final int STREAM_BATCH = 2048;

    static Result run(Suite suite) throws Exception {
        Result result = new Result("1 server crash: kill -9 x" + suite.mode.kills);
        String tag = suite.tag("crash");
        Server server = suite.primary();
        int orders = suite.mode.crashOrders;
        Random random = new Random(orders);
        List<String> restarts = new ArrayList<>();
        try (OrderLoad load = OrderLoad.start(tag, List.of(server), orders, suite.mode.ratePerSecond)) {
            int slice = orders / (suite.mode.kills + 1);
            for (int kill = 1; kill <= suite.mode.kills; kill++) {
                load.awaitAccepted(slice * kill - slice / 2 + random.nextInt(slice), suite.writePatience(orders));
                long pid = server.pid();
                int acceptedAtKill = load.accepted();
                long killedAt = System.nanoTime();
                server.kill();
                server.startAndAwaitReady(Suite.SERVER_START);
                restarts.add(String.format("pid %d killed after %,d orders, ready again in %.1f s", pid, acceptedAtKill,
                        (System.nanoTime() - killedAt) / 1e9));
            }
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
        }
        int perKill = IN_FLIGHT_PER_KILL + (suite.cdc() ? STREAM_BATCH : 0);
        long bound = (long) suite.mode.kills * perKill;
        long duplicates = result.counts().get("duplicated");
        result.fact("kills", String.join("; ", restarts));
        result.fact("duplicate bound", suite.mode.kills + " kills x " + (suite.cdc() ? "(two batches and the stream's)" : "two batches")
                + ", " + perKill + " = " + bound);
        result.expect(duplicates <= bound, duplicates + " duplicates exceed the bound of " + bound);
        return result;
    }

    private ServerCrash() {
    }
}

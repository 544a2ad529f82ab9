package io.outboxrelay.faults;

import java.time.Duration;
import java.util.List;

/**
 * Scenario 3: PostgreSQL is stopped under load and started again; 3b: its postmaster is killed with SIGKILL
 * under load (no shutdown checkpoint, its backends die with it) and started again after the outage, so it
 * comes back through crash recovery. Either way the server keeps running (same process), writes during the
 * outage are refused with a 503 problem document, none is half committed, nothing committed is lost, and
 * everything accepted is published once the database is back.
 */
final class DatabaseRestart {

    static Result run(Suite suite) throws Exception {
        return run(suite, false);
    }

    static Result crash(Suite suite) throws Exception {
        return run(suite, true);
    }

    private static Result run(Suite suite, boolean crash) throws Exception {
        Duration outage = suite.mode.databaseOutage;
        Result result = new Result(crash
                ? "3b database crash: PostgreSQL killed (SIGKILL), down " + outage.toSeconds() + " s, crash recovery"
                : "3 database restart: PostgreSQL down " + outage.toSeconds() + " s");
        String tag = suite.tag(crash ? "dbcrash" : "database");
        Server server = suite.primary();
        long pid = server.pid();
        int orders = suite.mode.orders;
        try (OrderLoad load = OrderLoad.start(tag, List.of(server), orders, suite.mode.ratePerSecond)) {
            load.awaitAccepted(orders / 3, suite.writePatience(orders));
            long refusedBefore = load.refused();
            if (crash) {
                suite.stack.killPostgres();
            } else {
                suite.stack.stopPostgres();
            }
            long stoppedAt = System.nanoTime(); // the outage counts once PostgreSQL is down
            Waits.until("the outage to last " + outage.toSeconds() + " s", outage.plusMinutes(1), Duration.ofMillis(200),
                    () -> System.nanoTime() - stoppedAt >= outage.toNanos());
            long refusedDuring = load.refused() - refusedBefore;
            long restartedAt = System.nanoTime();
            suite.stack.startPostgres();
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
            result.fact("everything published and consumed", String.format("%.1f s after PostgreSQL was started",
                    (System.nanoTime() - restartedAt) / 1e9));
            result.expect(refusedDuring > 0, "no write was refused with a 503 problem document during the outage");
        }
        result.fact("server process", server.pid() == pid ? "the same (pid " + pid + "), never restarted"
                : "restarted: pid " + pid + " became " + server.pid());
        result.expect(server.pid() == pid, "the server had to be restarted");
        return result;
    }

    private DatabaseRestart() {
    }
}

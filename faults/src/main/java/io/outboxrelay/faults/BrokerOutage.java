package io.outboxrelay.faults;

import java.time.Duration;
import java.util.List;

/**
 * Scenario 2: Kafka is stopped under load and restarted after the outage. Orders keep being
 * accepted (the write path needs only the database), so the server stays ready while its Kafka check
 * reports the outage; nothing is lost and nothing is dead-lettered: a broker-wide outage must not spend
 * events' attempts.
 */
final class BrokerOutage {

    static Result run(Suite suite) throws Exception {
        Duration outage = suite.mode.brokerOutage;
        Result result = new Result("2 broker outage: Kafka down " + outage.toSeconds() + " s");
        String tag = suite.tag("broker");
        Server server = suite.primary();
        int orders = suite.mode.orders;
        try (OrderLoad load = OrderLoad.start(tag, List.of(server), orders, suite.mode.ratePerSecond)) {
            load.awaitAccepted(orders / 3, suite.writePatience(orders));
            int before = load.accepted();
            try (HealthWatch kafka = HealthWatch.start(suite, server, "/outbox/health/kafka");
                 HealthWatch ready = HealthWatch.start(suite, server, "/health/ready")) {
                suite.stack.stopKafka();
                long stoppedAt = System.nanoTime(); // the outage counts once every node is down
                Waits.until("the outage to last " + outage.toSeconds() + " s", outage.plusMinutes(1), Duration.ofMillis(200),
                        () -> System.nanoTime() - stoppedAt >= outage.toNanos());
                result.fact("Kafka check", (kafka.sawDown()
                        ? String.format("DOWN %.1f s after the stop began", kafka.secondsToDown()) : "never said DOWN")
                        + "; answers by status " + kafka.answers());
                result.expect(kafka.sawDown(), "the Kafka check never reported the broker outage");
                result.fact("readiness", ready.sawDown() ? "said DOWN" : "stayed UP");
                result.expect(!ready.sawDown(), "readiness went DOWN although the write path needs only the database");
            }
            result.count("orders accepted during the outage", load.accepted() - before);
            result.expect(load.accepted() > before, "no order was accepted while Kafka was down");
            long restartedAt = System.nanoTime();
            suite.stack.startKafka();
            server.awaitHealthy("/outbox/health/kafka", Duration.ofMinutes(3));
            result.fact("Kafka check UP again", String.format("%.1f s after Kafka was started", (System.nanoTime() - restartedAt) / 1e9));
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
            result.fact("everything published and consumed", String.format("%.1f s after Kafka was started",
                    (System.nanoTime() - restartedAt) / 1e9));
        }
        return result;
    }

    private BrokerOutage() {
    }
}

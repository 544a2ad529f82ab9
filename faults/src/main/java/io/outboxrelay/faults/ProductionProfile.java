package io.outboxrelay.faults;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/**
 * Scenario 8, last part: a server started with the production profile on the local default
 * database password and the local users file must refuse to start, and say why in its log.
 */
final class ProductionProfile {

    static final String REFUSAL = "refuses to start in the production profile";

    static Result run(Suite suite) throws Exception {
        Result result = new Result("8 production profile with local defaults");
        Server server = suite.server("faults-production", Map.of("OUTBOX_PROFILE", "production"));
        server.start();
        try {
            // CWWKZ0001I: the application started; CWWKZ0002E: it failed to start.
            Waits.until("the production server to refuse or start", Suite.SERVER_START, Duration.ofMillis(500),
                    () -> log(server).contains("CWWKZ0002E") || log(server).contains("CWWKZ0001I"));
            try {
                Waits.until("the production server's HTTP port to open", Duration.ofMinutes(1), Duration.ofMillis(250),
                        () -> server.status(suite.http, "/health/started") != -1);
            } catch (org.awaitility.core.ConditionTimeoutException closed) {
                // reported below as "no answer": the server runs without the application
            }
            String log = log(server);
            String refusal = log.lines().filter(line -> line.contains(REFUSAL)).findFirst().orElse("");
            result.fact("log", refusal.isEmpty() ? "no refusal logged" : refusal.substring(refusal.indexOf("Outbox Relay")));
            result.expect(!refusal.isEmpty(), "the server did not log a refusal");
            result.expect(!log.contains("CWWKZ0001I"), "the application started with the local defaults");
            int started = server.status(suite.http, "/health/started");
            result.fact("GET /health/started", started == -1 ? "no answer" : String.valueOf(started));
            result.expect(started != 200, "the application reports itself started");
        } finally {
            server.stop();
        }
        return result;
    }

    private static String log(Server server) throws java.io.IOException {
        return Files.exists(server.messagesLog()) ? Files.readString(server.messagesLog()) : "";
    }

    private ProductionProfile() {
    }
}

package io.outboxrelay.faults;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 6: poison events are mixed into a stream of good orders. They are written into the
 * outbox table the way another service sharing it would, in the same row shape:
 * <ul>
 * <li>too large for their topic (a topic capped at 1 KB): Kafka refuses them, the dead-letter
 *     topic takes them, so they end DLT;</li>
 * <li>(payloads are random hex, so the producer's compression cannot shrink them under a limit)</li>
 * <li>oversized (1.2 MB, more than any topic here takes): not even the DLT takes them, DEAD;</li>
 * <li>addressed to an illegal topic name: DEAD, as its DLT name is illegal too.</li>
 * </ul>
 * The good orders' commit-to-publish latency is reported next to a calm run's of the same size.
 */
final class PoisonMixedIn {

    private record Kind(String name, String topic, int payloadBytes, String expected) {
    }

    static Result run(Suite suite) throws Exception {
        Result result = new Result("6 poison mixed in");
        Server server = suite.primary();
        int orders = suite.mode.poisonGoodOrders;

        String calm = suite.tag("calm");
        try (OrderLoad load = OrderLoad.start(calm, List.of(server), orders, suite.mode.ratePerSecond)) {
            load.awaitDone(suite.writePatience(orders));
            suite.ledger.awaitSettled(calm, suite.settlePatience());
        }
        result.fact("good events' commit-to-publish, calm run", latency(suite, calm));

        String tag = suite.tag("poison");
        String smallTopic = "faults.small." + tag;
        createSmallTopic(suite, smallTopic);
        List<Kind> kinds = List.of(
                new Kind("too large for its topic", smallTopic, 4_000, "DLT"),
                new Kind("oversized", Ledger.TOPIC, 1_200_000, "DEAD"),
                new Kind("illegal topic", "faults poison!", 100, "DEAD"));
        try (OrderLoad load = OrderLoad.start(tag, List.of(server), orders, suite.mode.ratePerSecond)) {
            for (int wave = 1; wave <= 3; wave++) {
                load.awaitAccepted(orders * wave / 4, suite.writePatience(orders));
                for (Kind kind : kinds) {
                    plant(suite, tag, kind, wave, suite.mode.poisonPerKind / 3 + (wave == 1 ? suite.mode.poisonPerKind % 3 : 0));
                }
            }
            load.awaitDone(suite.writePatience(orders));
            suite.settleAndCount(result, tag, load);
        }
        result.fact("good events' commit-to-publish, with poison", latency(suite, tag));
        Waits.until("every poison event dead-lettered", suite.settlePatience(), Duration.ofMillis(500),
                () -> poisonStates(suite, tag).values().stream().allMatch(states -> !states.contains("PENDING")
                        && !states.contains("IN_FLIGHT")));
        Map<String, String> states = poisonStates(suite, tag);
        for (Kind kind : kinds) {
            String seen = states.getOrDefault(kind.name(), "none");
            result.fact("poison: " + kind.name() + " (" + suite.mode.poisonPerKind + ")", seen);
            result.expect(seen.equals(suite.mode.poisonPerKind + " " + kind.expected()),
                    kind.name() + ": expected all " + kind.expected() + ", saw " + seen);
        }
        return result;
    }

    private static void createSmallTopic(Suite suite, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", suite.stack.bootstrap()))) {
            short replicas = (short) Math.min(3, suite.stack.kafkaNodes());
            admin.createTopics(List.of(new NewTopic(topic, 1, replicas).configs(Map.of("max.message.bytes", "1024"))))
                    .all().get(60, TimeUnit.SECONDS);
        }
    }

    private static void plant(Suite suite, String tag, Kind kind, int wave, int count) throws SQLException {
        try (Connection connection = suite.ledger.connect(); PreparedStatement insert = connection.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload)
                SELECT gen_random_uuid(), 'FaultPoison', ? || '-' || n, ?, ?,
                       jsonb_build_object('blob', (SELECT string_agg(md5(random()::text || n || g), '')
                                                   FROM generate_series(1, ? / 32) AS g))
                FROM generate_series(1, ?) AS n""")) {
            insert.setString(1, tag + "-" + wave + "-" + kind.name().replace(' ', '-'));
            insert.setString(2, kind.name());
            insert.setString(3, kind.topic());
            insert.setInt(4, kind.payloadBytes());
            insert.setInt(5, count);
            insert.executeUpdate();
        }
    }

    /** Per poison kind, its rows counted by state, e.g. "10 DLT". */
    private static Map<String, String> poisonStates(Suite suite, String tag) throws SQLException {
        try (Connection connection = suite.ledger.connect(); PreparedStatement query = connection.prepareStatement("""
                SELECT event_type, string_agg(n || ' ' || status, ', ' ORDER BY status)
                FROM (SELECT event_type, status, count(*) AS n FROM outbox_event_state
                      WHERE aggregate_type = 'FaultPoison' AND aggregate_id LIKE ? || '-%'
                      GROUP BY event_type, status) s
                GROUP BY event_type""")) {
            query.setString(1, tag);
            Map<String, String> states = new java.util.HashMap<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    states.put(rows.getString(1), rows.getString(2));
                }
            }
            return states;
        }
    }

    /** p50 / p95 / p99 / max of published_at - created_at over the run's SENT events, in ms. */
    private static String latency(Suite suite, String tag) throws SQLException {
        try (Connection connection = suite.ledger.connect(); PreparedStatement query = connection.prepareStatement("""
                SELECT percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY ms), max(ms)
                FROM (SELECT extract(epoch FROM e.published_at - e.created_at) * 1000 AS ms FROM outbox_event_state e
                      WHERE e.aggregate_type = 'Order' AND e.status = 'SENT'
                        AND e.aggregate_id IN (SELECT id::text FROM orders WHERE customer_id = ?)) l""")) {
            query.setString(1, tag);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                Double[] p = (Double[]) row.getArray(1).getArray();
                return String.format("p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms", p[0], p[1], p[2], row.getDouble(2));
            }
        }
    }

    private PoisonMixedIn() {
    }
}

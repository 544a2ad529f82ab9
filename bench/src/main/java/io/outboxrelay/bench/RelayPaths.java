package io.outboxrelay.bench;

import org.awaitility.core.ConditionTimeoutException;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * How the Outbox Relay server found the events of each drain, from its own meters on /outbox/prometheus:
 * {@code outbox_relay_sent_total{path}} (claim: the polling claim, in CDC mode the safety net; stream: the ids
 * CDC mode's change stream read) and {@code outbox_relay_claim_seconds{path}} (every claim, the empty ones too).
 * In CDC mode the safety net's claims are what polling still costs the database while the stream publishes.
 */
final class RelayPaths {

    private static final Pattern METER = Pattern.compile(
            "(?m)^outbox_relay_(sent_total|claim_seconds_count|claim_seconds_sum)\\{path=\"(claim|stream)\"}\\s+(\\S+)");
    private static final List<String> PATHS = List.of("claim", "stream");

    private final List<Drain> drains = new CopyOnWriteArrayList<>();

    /** One path's share of a drain: events sent, claims made (also empty ones) and their time in all. */
    record Share(String path, long sent, long claims, double claimSeconds) {

        String describe() {
            return String.format(Locale.ROOT, "%s: %,d events sent, %,d claims, %.1f s claiming (mean %.2f ms)", path,
                    sent, claims, claimSeconds, claims == 0 ? 0 : 1000 * claimSeconds / claims);
        }
    }

    /** A drain of {@code rows} that took {@code seconds}, and how each path took part. */
    record Drain(int rows, double seconds, List<Share> shares) {

        String describe() {
            StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%,d rows in %.1f s", rows, seconds));
            shares.forEach(share -> text.append("; ").append(share.describe()));
            return text.toString();
        }
    }

    List<Drain> drains() {
        return drains;
    }

    /** The server's path meters now, to pass to {@link #noteDrain} once the drain is over. */
    static Map<String, Double> snapshot(Env env) throws Exception {
        return env.serverMeters(METER);
    }

    /**
     * Notes a drain of {@code rows} that took {@code nanos}, from the meters' change since {@code before}. The drain
     * ends when the last record is on the topic; its round records what it sent a moment later, so this waits (up to
     * 30 s) until the meters count every row.
     */
    void noteDrain(Env env, int rows, long nanos, Map<String, Double> before) throws Exception {
        try {
            Env.await("the relay's meters to count the drained rows", Duration.ofSeconds(30), Duration.ofMillis(200),
                    () -> sent(before, env.serverMeters(METER)) >= rows);
        } catch (ConditionTimeoutException uncounted) {
            // reported as the meters count it
        }
        Map<String, Double> after = env.serverMeters(METER);
        List<Share> shares = PATHS.stream().map(path -> new Share(path,
                Math.round(delta(before, after, "sent_total", path)),
                Math.round(delta(before, after, "claim_seconds_count", path)),
                delta(before, after, "claim_seconds_sum", path))).toList();
        Drain drain = new Drain(rows, nanos / 1e9, shares);
        drains.add(drain);
        System.out.println("paths    " + drain.describe());
    }

    private static double sent(Map<String, Double> before, Map<String, Double> after) {
        return PATHS.stream().mapToDouble(path -> delta(before, after, "sent_total", path)).sum();
    }

    private static double delta(Map<String, Double> before, Map<String, Double> after, String meter, String path) {
        String key = meter + "/" + path;
        return after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
    }
}

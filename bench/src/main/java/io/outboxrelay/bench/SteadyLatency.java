package io.outboxrelay.bench;

import org.awaitility.core.ConditionTimeoutException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The steady latency figure for one contender: its pipeline up, a writer committing at a fixed
 * rate for a fixed time, a consumer timing each event from commit to consumed. A rate is
 * sustained when the writer kept the rate and every event arrived within {@link #GRACE} after the
 * writer stopped (the backlog did not grow). Rates run from low to high and stop at the first one
 * not sustained; the optional ramp then doubles from the highest sustained rate, below the first
 * failing one and under a cap, to find the highest this contender sustains.
 */
final class SteadyLatency {

    static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final int RAMP_STEPS = 3;
    static final int RAMP_CAP = 50_000;

    /** One rate step. Latencies in milliseconds over the events that arrived; NaN when none did. */
    record Step(String contender, int rate, double seconds, long written, double writtenPerSecond, long consumed,
                boolean sustained, String note, double p50, double p95, double p99, double max) {
    }

    private SteadyLatency() {
    }

    static List<Step> run(Env env, String name, Steady.Capable contender, List<Integer> rates, boolean ramp,
                          Duration stepTime, Map<String, String> writes) throws Exception {
        List<Step> steps = new ArrayList<>();
        try (Steady steady = contender.steady(env)) {
            writes.put(name, steady.writes());
            long first = 1;
            int highestSustained = 0;
            int lowestFailed = Integer.MAX_VALUE;
            for (int rate : rates) {
                if (rate >= lowestFailed) {
                    break;
                }
                Step step = step(env, name, steady, first, rate, stepTime);
                first += (long) rate * stepTime.toSeconds() + 1;
                steps.add(step);
                if (step.sustained()) {
                    highestSustained = Math.max(highestSustained, rate);
                } else {
                    lowestFailed = rate;
                }
            }
            for (int i = 0, rate = highestSustained * 2; ramp && highestSustained > 0 && i < RAMP_STEPS
                    && rate < lowestFailed && rate <= RAMP_CAP; i++, rate *= 2) {
                Step step = step(env, name, steady, first, rate, stepTime);
                first += (long) rate * stepTime.toSeconds() + 1;
                steps.add(step);
                if (!step.sustained()) {
                    break;
                }
            }
        }
        return steps;
    }

    private static Step step(Env env, String name, Steady steady, long first, int rate, Duration time) throws Exception {
        System.out.printf("steady   %-13s %,7d events/s for %d s ...%n", name, rate, time.toSeconds());
        int count = (int) (rate * time.toSeconds());
        try (LatencyConsumer consumer = new LatencyConsumer(env, steady, first, count)) {
            RateWriter.Written written = RateWriter.write(steady, first, rate, time);
            boolean allArrived = arrivedWithin(consumer, written.count(), GRACE);
            if (!allArrived) {
                arrivedWithin(consumer, written.count(), SETTLE); // let the backlog go before the next figure
            }
            double[] inOrder = latenciesMillis(written.commitNanos(), consumer.arrivals());
            boolean grew = grew(inOrder);
            double[] latencies = inOrder.clone();
            Arrays.sort(latencies);
            boolean keptRate = written.keptUp() && written.perSecond() >= 0.9 * rate;
            boolean sustained = keptRate && allArrived && !grew;
            String note = written.firstError() != null ? "write failed: " + written.firstError()
                    : !keptRate ? "the writer could not keep the rate"
                    : !allArrived ? "backlog grew: not all consumed within " + GRACE.toSeconds() + " s after the writer stopped"
                    : grew ? "backlog grew: the last quarter's median latency is over twice the first quarter's"
                    : "";
            Step step = new Step(name, rate, time.toSeconds(), written.count(), written.perSecond(), latencies.length,
                    sustained, note, percentile(latencies, 50), percentile(latencies, 95), percentile(latencies, 99),
                    percentile(latencies, 100));
            System.out.printf("steady   %-13s %,7d events/s: %s, p50 %.1f ms, p99 %.1f ms, max %.1f ms %s%n", name, rate,
                    sustained ? "sustained" : "NOT sustained", step.p50(), step.p99(), step.max(), note);
            return step;
        }
    }

    private static boolean arrivedWithin(LatencyConsumer consumer, long expected, Duration patience) {
        try {
            Env.await("all written events to be consumed", patience, Duration.ofMillis(20), () -> consumer.arrived() >= expected);
            return true;
        } catch (ConditionTimeoutException late) {
            return false;
        }
    }

    /** Whether events waited ever longer: median latency of the last quarter over 2x the first quarter's (+50 ms). */
    private static boolean grew(double[] inWriteOrder) {
        int quarter = inWriteOrder.length / 4;
        if (quarter < 10) {
            return false;
        }
        double[] first = Arrays.copyOfRange(inWriteOrder, 0, quarter);
        double[] last = Arrays.copyOfRange(inWriteOrder, inWriteOrder.length - quarter, inWriteOrder.length);
        Arrays.sort(first);
        Arrays.sort(last);
        return percentile(last, 50) > 2 * percentile(first, 50) + 50;
    }

    /** Latencies in write order (by sequence) of the events that were written and arrived. */
    private static double[] latenciesMillis(AtomicLongArray commits, AtomicLongArray arrivals) {
        double[] latencies = new double[commits.length()];
        int n = 0;
        for (int i = 0; i < commits.length(); i++) {
            long committed = commits.get(i);
            long arrived = arrivals.get(i);
            if (committed > 0 && arrived > 0) {
                // a record can be read before its writer thread noted the commit: that counts as 0, not negative
                latencies[n++] = Math.max(0, arrived - committed) / 1e6;
            }
        }
        return Arrays.copyOf(latencies, n);
    }

    /** Nearest-rank percentile of sorted values; NaN when there are none. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}

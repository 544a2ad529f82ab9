package io.outboxrelay.bench;

import org.awaitility.core.ConditionTimeoutException;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The steady latency figure for one contender: its pipeline up and warmed up (events written
 * unmeasured: a fresh server took half the orders per second until its JIT had compiled the hot
 * paths), a writer committing at a fixed rate for a fixed time, a consumer timing each event from
 * commit to consumed. A rate is sustained when the writer kept the rate and every event arrived
 * within {@link #GRACE} after the writer stopped (the backlog did not grow).
 * <p>
 * The listed rates run from low to high and stop at the first one not sustained. With the search
 * on, the highest sustained rate is then looked for: when none was sustained, the rate halves (down
 * to {@link #FLOOR}) until one is; from the highest sustained it doubles (below the lowest failing
 * one, under {@link #RAMP_CAP}); then it bisects between the two.
 */
final class SteadyLatency {

    static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration SETTLE = Duration.ofSeconds(60);
    private static final Duration WARM_UP_SETTLE = Duration.ofMinutes(3);
    private static final int RAMP_STEPS = 3;
    private static final int HALVING_STEPS = 4;
    private static final int BISECTION_STEPS = 2;
    static final int FLOOR = 25;
    static final int RAMP_CAP = 50_000;
    private static final long BURST_GAP_MILLIS = 100;
    private static final int BURSTS_SHOWN = 4;

    /**
     * One rate step. Latencies in milliseconds over the events that arrived; NaN when none did. {@code cpu}: what each
     * process spent per event written, from the writer's start until every event arrived or the grace ran out (null
     * without {@code /proc}); {@code busy}: the share of the machine's cores busy over that span; {@code slowest}: when
     * the events at or over the p99 were committed (see {@link #slowBursts}).
     */
    record Step(String contender, int rate, double seconds, long written, double writtenPerSecond, long consumed,
                boolean sustained, String note, double p50, double p95, double p99, double max, ProcessCpu.PerOrder cpu,
                double busy, String slowest) {
    }

    private SteadyLatency() {
    }

    static List<Step> run(Env env, String name, Steady.Capable contender, List<Integer> rates, boolean search,
                          int warmUp, Duration stepTime, Map<String, String> writes) throws Exception {
        List<Step> steps = new ArrayList<>();
        try (Steady steady = contender.steady(env)) {
            writes.put(name, steady.writes());
            Search found = new Search(env, name, steady, stepTime, steps, 1 + warmUp(env, name, steady, 1, warmUp));
            for (int rate : rates) {
                if (rate >= found.lowestFailed) {
                    break;
                }
                found.tryRate(rate);
            }
            if (!search) {
                return steps;
            }
            for (int i = 0, rate = found.lowestFailed / 2; found.highestSustained == 0 && i < HALVING_STEPS && rate >= FLOOR;
                 i++, rate /= 2) {
                found.tryRate(rate);
            }
            for (int i = 0, rate = found.highestSustained * 2; found.highestSustained > 0 && i < RAMP_STEPS
                    && rate < found.lowestFailed && rate <= RAMP_CAP; i++, rate *= 2) {
                if (!found.tryRate(rate)) {
                    break;
                }
            }
            for (int i = 0; i < BISECTION_STEPS && found.highestSustained > 0 && found.lowestFailed <= RAMP_CAP
                    && found.lowestFailed > found.highestSustained * 5 / 4; i++) {
                found.tryRate(roundedMidpoint(found.highestSustained, found.lowestFailed));
            }
        }
        return steps;
    }

    /** Halfway between two rates, rounded to a multiple of 10 (or 5 below 100) to read well. */
    static int roundedMidpoint(int low, int high) {
        int unit = high < 100 ? 5 : 10;
        int middle = Math.round((low + high) / 2f / unit) * unit;
        return middle > low && middle < high ? middle : (low + high) / 2;
    }

    /** The steps tried so far for one contender, and what they found. */
    private static final class Search {
        private final Env env;
        private final String name;
        private final Steady steady;
        private final Duration stepTime;
        private final List<Step> steps;
        private long first;
        int highestSustained;
        int lowestFailed = Integer.MAX_VALUE;

        Search(Env env, String name, Steady steady, Duration stepTime, List<Step> steps, long first) {
            this.env = env;
            this.name = name;
            this.steady = steady;
            this.stepTime = stepTime;
            this.steps = steps;
            this.first = first;
        }

        boolean tryRate(int rate) throws Exception {
            Step step = step(env, name, steady, first, rate, stepTime);
            first += (long) rate * stepTime.toSeconds() + 1;
            steps.add(step);
            steady.settle(env);
            if (step.sustained()) {
                highestSustained = Math.max(highestSustained, rate);
            } else {
                lowestFailed = Math.min(lowestFailed, rate);
            }
            return step.sustained();
        }
    }

    /**
     * Writes {@code count} events back to back from {@link RateWriter#THREADS} threads and waits
     * until they arrived, so that the steps measure a warm pipeline (JIT-compiled request path,
     * open connections, a started relay); returns how many sequence numbers it used. Nothing of it is reported.
     */
    private static long warmUp(Env env, String name, Steady steady, long first, int count) throws Exception {
        System.out.printf("steady   %-13s warming up with %,d events ...%n", name, count);
        try (LatencyConsumer consumer = new LatencyConsumer(env, steady, first, count)) {
            RateWriter.Burst burst = RateWriter.burst(steady, first, count);
            boolean arrived = arrivedWithin(consumer, burst.written(), WARM_UP_SETTLE);
            System.out.printf("steady   %-13s warmed up: %,d written in %.1f s%s%s%n", name, burst.written(), burst.seconds(),
                    arrived ? ", all arrived" : ", NOT all arrived within " + WARM_UP_SETTLE.toSeconds() + " s",
                    burst.firstError() == null ? "" : ", first failure: " + burst.firstError());
        }
        steady.settle(env);
        return count;
    }

    private static Step step(Env env, String name, Steady steady, long first, int rate, Duration time) throws Exception {
        System.out.printf("steady   %-13s %,7d events/s for %d s ...%n", name, rate, time.toSeconds());
        int count = (int) (rate * time.toSeconds());
        try (LatencyConsumer consumer = new LatencyConsumer(env, steady, first, count)) {
            ProcessCpu.Sample before = Backlog.cpuSample(env);
            long started = System.nanoTime();
            long startedWallMillis = System.currentTimeMillis();
            RateWriter.Written written = RateWriter.write(steady, first, rate, time);
            boolean allArrived = arrivedWithin(consumer, written.count(), GRACE);
            ProcessCpu.PerOrder cpu = Backlog.cpuPerEvent(env, before, (int) written.count());
            double busy = cpu == null ? Double.NaN : cpu.machineMillis() * written.count()
                    / ((System.nanoTime() - started) / 1e6 * Runtime.getRuntime().availableProcessors());
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
            double p99 = percentile(latencies, 99);
            Step step = new Step(name, rate, time.toSeconds(), written.count(), written.perSecond(), latencies.length,
                    sustained, note, percentile(latencies, 50), percentile(latencies, 95), p99, percentile(latencies, 100),
                    cpu, busy, slowBursts(written.commitNanos(), consumer.arrivals(), p99, started, startedWallMillis));
            System.out.printf("steady   %-13s %,7d events/s: %s, p50 %.1f ms, p99 %.1f ms, max %.1f ms %s%n", name, rate,
                    sustained ? "sustained" : "NOT sustained", step.p50(), step.p99(), step.max(), note);
            System.out.printf("steady   %-13s %,7d events/s: %s%n", name, rate, step.slowest());
            if (cpu != null) {
                System.out.printf(Locale.ROOT, "steady   %-13s %,7d events/s: CPU µs per event: server %.1f, PostgreSQL %.1f,"
                                + " Kafka %.1f, harness %.1f, other %.1f; the machine %.0f%% busy%n", name, rate,
                        cpu.micros(ProcessCpu.Role.SERVER), cpu.micros(ProcessCpu.Role.POSTGRESQL),
                        cpu.micros(ProcessCpu.Role.KAFKA), cpu.micros(ProcessCpu.Role.HARNESS),
                        cpu.micros(ProcessCpu.Role.OTHER), 100 * busy);
            }
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

    /**
     * When the slowest events (latency at or above {@code p99}) were committed: in bursts of events committed less than
     * {@link #BURST_GAP_MILLIS} apart, the largest {@link #BURSTS_SHOWN} by wall-clock time of their first commit, their
     * count and their highest latency. A p99 made of a few bursts points at pauses (a vacuum, a lock, a collection) to
     * look up in the logs of the same minute; one spread over the whole step points at a steady cost.
     */
    static String slowBursts(AtomicLongArray commits, AtomicLongArray arrivals, double p99, long startedNanos,
                             long startedWallMillis) {
        if (Double.isNaN(p99)) {
            return "no event arrived";
        }
        List<Burst> bursts = new ArrayList<>();
        for (int i = 0; i < commits.length(); i++) {
            long committed = commits.get(i);
            long arrived = arrivals.get(i);
            if (committed <= 0 || arrived <= 0 || (arrived - committed) / 1e6 < p99) {
                continue;
            }
            Burst last = bursts.isEmpty() ? null : bursts.get(bursts.size() - 1);
            if (last != null && committed - last.lastCommit < BURST_GAP_MILLIS * 1_000_000) {
                last.add(committed, arrived - committed);
            } else {
                bursts.add(new Burst(committed, arrived - committed));
            }
        }
        long slow = bursts.stream().mapToLong(burst -> burst.events).sum();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "the %,d events at or over p99 came in %d burst%s",
                slow, bursts.size(), bursts.size() == 1 ? "" : "s"));
        bursts.stream().sorted((a, b) -> Long.compare(b.events, a.events)).limit(BURSTS_SHOWN).forEach(burst -> line.append(
                String.format(Locale.ROOT, "; at %s %d event%s up to %.1f ms",
                        LocalTime.ofInstant(Instant.ofEpochMilli(startedWallMillis + (burst.firstCommit - startedNanos) / 1_000_000),
                                ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS),
                        burst.events, burst.events == 1 ? "" : "s", burst.worstNanos / 1e6)));
        return line.toString();
    }

    /** Slow events committed close together: when the first and the last were committed, how many, the worst latency. */
    private static final class Burst {
        final long firstCommit;
        long lastCommit;
        long events = 1;
        long worstNanos;

        Burst(long committed, long latencyNanos) {
            firstCommit = committed;
            lastCommit = committed;
            worstNanos = latencyNanos;
        }

        void add(long committed, long latencyNanos) {
            lastCommit = Math.max(lastCommit, committed);
            events++;
            worstNanos = Math.max(worstNanos, latencyNanos);
        }
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

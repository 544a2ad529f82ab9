package io.outboxrelay.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backlog drain figure: each round drains the same number of rows through every contender,
 * one at a time; the slow seeds' poller drains fewer, and so may gruelbox (full mode). Collects
 * events/s per contender and round, the seconds its rows took to commit, and where the machine's CPU went.
 * Before the first round every contender drains a share of its rows unmeasured, so that the first counted round
 * does not pay alone for a cold JIT (the steady and write figures warm up likewise); a fifth does not warm the
 * relay's server fully (docs/benchmark.md, "The drains warmed up alike").
 */
final class Drains {

    private final int rows;
    private final int rounds;
    private final int slowCap;
    private final int gruelboxRows;
    private final double warmUpShare;
    private final Map<String, List<Double>> eventsPerSecond = new LinkedHashMap<>();
    private final Map<String, List<Double>> committedSeconds = new LinkedHashMap<>();
    private final Map<String, Integer> rowsDrained = new LinkedHashMap<>();
    private final Map<String, Integer> warmUpRows = new LinkedHashMap<>();
    private final Map<String, Backlog.Timing> timings = new LinkedHashMap<>();
    private final Map<String, List<ProcessCpu.PerOrder>> cpu = new LinkedHashMap<>();

    private final Backlog.Timing timing;

    /** {@code warmUpShare}: the share of its rows each contender drains unmeasured first (0: none). */
    Drains(int rows, int rounds, int slowCap, int gruelboxRows, double warmUpShare, Backlog.Timing timing) {
        if (warmUpShare < 0 || warmUpShare > 1) {
            throw new IllegalArgumentException("the drains' warm-up is a share of their rows, from 0 to 1: " + warmUpShare);
        }
        this.warmUpShare = warmUpShare;
        this.timing = timing;
        this.rows = rows;
        this.rounds = rounds;
        this.slowCap = slowCap;
        this.gruelboxRows = gruelboxRows;
    }

    void run(Env env, List<Contender> contenders) throws Exception {
        for (Contender contender : contenders) {
            int n = (int) Math.round(rowsOf(contender) * warmUpShare);
            if (n > 0) {
                System.out.printf("warm-up    %-18s draining %,d rows, not counted ...%n", contender.name(), n);
                Backlog.Drained drained = contender.warmUp(env, n, timing);
                warmUpRows.put(contender.name(), n);
                System.out.printf("warm-up    %-18s %,10.0f events/s, not counted%n", contender.name(),
                        n / (drained.nanos() / 1e9));
            }
        }
        for (int round = 1; round <= rounds; round++) {
            for (Contender contender : contenders) {
                int n = rowsOf(contender);
                System.out.printf("round %d/%d  %-18s draining %,d rows ...%n", round, rounds, contender.name(), n);
                Backlog.Drained drained = contender.drain(env, n, timing);
                double perSecond = n / (drained.nanos() / 1e9);
                eventsPerSecond.computeIfAbsent(contender.name(), name -> new ArrayList<>()).add(perSecond);
                committedSeconds.computeIfAbsent(contender.name(), name -> new ArrayList<>()).add(drained.committedNanos() / 1e9);
                rowsDrained.put(contender.name(), n);
                timings.put(contender.name(), drained.timing());
                if (drained.cpu() != null) {
                    cpu.computeIfAbsent(contender.name(), name -> new ArrayList<>()).add(drained.cpu());
                }
                System.out.printf("round %d/%d  %-18s %,10.0f events/s  (%,.2f s; its rows committed in %,.2f s, %s)%n", round,
                        rounds, contender.name(), perSecond, drained.nanos() / 1e9, drained.committedNanos() / 1e9,
                        drained.timing() == Backlog.Timing.AFTER_WRITTEN ? "before the clock" : "from the first insert");
            }
        }
    }

    private int rowsOf(Contender contender) {
        return contender instanceof SeedsPoller ? Math.min(rows, slowCap) : contender instanceof Gruelbox ? gruelboxRows : rows;
    }

    Map<String, List<Double>> eventsPerSecond() {
        return eventsPerSecond;
    }

    /** Per contender and round, the seconds its rows took to commit (see {@link Backlog.Drained}). */
    Map<String, List<Double>> committedSeconds() {
        return committedSeconds;
    }

    Map<String, Integer> rowsDrained() {
        return rowsDrained;
    }

    /** Per contender, the rows it drained unmeasured before its first round (absent: none). */
    Map<String, Integer> warmUpRows() {
        return warmUpRows;
    }

    /** Per contender and round (where {@code /proc} could be read), the CPU each process spent per event. */
    Map<String, List<ProcessCpu.PerOrder>> cpu() {
        return cpu;
    }

    /** Per contender, how its drains were timed. */
    Map<String, Backlog.Timing> timings() {
        return timings;
    }
}

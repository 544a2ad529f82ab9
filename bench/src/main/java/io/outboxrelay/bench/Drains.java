package io.outboxrelay.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backlog drain figure: each round drains the same number of rows through every contender,
 * one at a time; the slow seeds' poller drains fewer, and so may gruelbox (full mode). Collects
 * events/s per contender and round, the seconds its rows took to commit, and where the machine's CPU went.
 */
final class Drains {

    private final int rows;
    private final int rounds;
    private final int slowCap;
    private final int gruelboxRows;
    private final Map<String, List<Double>> eventsPerSecond = new LinkedHashMap<>();
    private final Map<String, List<Double>> committedSeconds = new LinkedHashMap<>();
    private final Map<String, Integer> rowsDrained = new LinkedHashMap<>();
    private final Map<String, Backlog.Timing> timings = new LinkedHashMap<>();
    private final Map<String, List<ProcessCpu.PerOrder>> cpu = new LinkedHashMap<>();

    private final Backlog.Timing timing;

    Drains(int rows, int rounds, int slowCap, int gruelboxRows, Backlog.Timing timing) {
        this.timing = timing;
        this.rows = rows;
        this.rounds = rounds;
        this.slowCap = slowCap;
        this.gruelboxRows = gruelboxRows;
    }

    void run(Env env, List<Contender> contenders) throws Exception {
        for (int round = 1; round <= rounds; round++) {
            for (Contender contender : contenders) {
                int n = contender instanceof SeedsPoller ? Math.min(rows, slowCap)
                        : contender instanceof Gruelbox ? gruelboxRows : rows;
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

    /** Per contender and round (where {@code /proc} could be read), the CPU each process spent per event. */
    Map<String, List<ProcessCpu.PerOrder>> cpu() {
        return cpu;
    }

    /** Per contender, how its drains were timed. */
    Map<String, Backlog.Timing> timings() {
        return timings;
    }
}

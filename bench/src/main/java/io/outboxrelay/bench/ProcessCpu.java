package io.outboxrelay.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the machine's CPU went over a span, by the role of each process: the Outbox Relay server, PostgreSQL,
 * Kafka, this harness and everything else; read from {@code /proc}. The write path divides it by the orders
 * created, so a figure that moves says which process paid for it. A process counts its own time and that of
 * the children it has reaped (so PostgreSQL's backends and autovacuum workers that ended during the span count
 * with the postmaster; a worker that started before the span counts whole). The machine's busy time comes from
 * {@code /proc/stat}; "other" is what no process listed at both ends accounts for.
 */
final class ProcessCpu {

    enum Role { SERVER, POSTGRESQL, KAFKA, HARNESS, OTHER }

    /** CPU milliseconds per order, by role, and the whole machine's busy time per order. */
    record PerOrder(Map<Role, Double> millis, double machineMillis) {

        String describe() {
            return String.format(Locale.ROOT, "CPU per order: server %.2f ms, PostgreSQL %.2f, Kafka %.2f, harness %.2f,"
                            + " other %.2f; machine %.2f", millis.get(Role.SERVER), millis.get(Role.POSTGRESQL),
                    millis.get(Role.KAFKA), millis.get(Role.HARNESS), millis.get(Role.OTHER), machineMillis);
        }

        /** CPU microseconds per event (the figure's unit when an event costs much less than a millisecond). */
        double micros(Role role) {
            return 1000 * millis.get(role);
        }

        /** The mean of several spans' figures, role by role and for the machine. */
        static PerOrder mean(List<PerOrder> spans) {
            Map<Role, Double> millis = new EnumMap<>(Role.class);
            for (Role role : Role.values()) {
                millis.put(role, spans.stream().mapToDouble(span -> span.millis().get(role)).average().orElse(0));
            }
            return new PerOrder(millis, spans.stream().mapToDouble(PerOrder::machineMillis).average().orElse(0));
        }

        /** CPU microseconds per event by role, then the machine's, as Markdown table cells: {@code | 1.0 | ... |}. */
        String microsCells() {
            return String.format(Locale.ROOT, "| %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |", micros(Role.SERVER),
                    micros(Role.POSTGRESQL), micros(Role.KAFKA), micros(Role.HARNESS), micros(Role.OTHER),
                    1000 * machineMillis);
        }

        /** CPU microseconds per event by role and the machine's, as one JSON object. */
        String microsJson() {
            return String.format(Locale.ROOT, "{\"server\": %.1f, \"postgresql\": %.1f, \"kafka\": %.1f,"
                            + " \"harness\": %.1f, \"other\": %.1f, \"machine\": %.1f}", micros(Role.SERVER),
                    micros(Role.POSTGRESQL), micros(Role.KAFKA), micros(Role.HARNESS), micros(Role.OTHER),
                    1000 * machineMillis);
        }

        String json() {
            return String.format(Locale.ROOT, "{\"serverMs\": %.3f, \"postgresqlMs\": %.3f, \"kafkaMs\": %.3f,"
                            + " \"harnessMs\": %.3f, \"otherMs\": %.3f, \"machineMs\": %.3f}", millis.get(Role.SERVER),
                    millis.get(Role.POSTGRESQL), millis.get(Role.KAFKA), millis.get(Role.HARNESS), millis.get(Role.OTHER),
                    machineMillis);
        }
    }

    /** The processes' cumulative CPU ticks at one moment, and the machine's busy ticks. */
    record Sample(Map<Long, Ticks> processes, long machineBusy) {
    }

    record Ticks(Role role, long ticks) {
    }

    /** Linux reports process times in USER_HZ ticks, 100 a second on every common build. */
    static final double MILLIS_PER_TICK = 10;

    private ProcessCpu() {
    }

    /** Whether this machine has a {@code /proc} to read; elsewhere the figure is left out. */
    static boolean available() {
        return Files.isReadable(Path.of("/proc/stat"));
    }

    static Sample sample(long serverPid) {
        Map<Long, Ticks> processes = new HashMap<>();
        long self = ProcessHandle.current().pid();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            entries.filter(entry -> entry.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(entry -> {
                long pid = Long.parseLong(entry.getFileName().toString());
                try {
                    String stat = Files.readString(entry.resolve("stat"));
                    long ticks = ticks(stat, true);
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    processes.put(pid, new Ticks(role(pid, name, entry, self, serverPid), ticks));
                } catch (IOException | RuntimeException gone) {
                    // the process ended while the list was read: its time is with its parent now
                }
            });
        } catch (IOException unreadable) {
            throw new IllegalStateException("cannot list /proc", unreadable);
        }
        return new Sample(processes, machineBusy());
    }

    static PerOrder perOrder(Sample from, Sample to, long orders) {
        Map<Role, Double> millis = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            millis.put(role, 0.0);
        }
        double listed = 0;
        for (Map.Entry<Long, Ticks> process : to.processes().entrySet()) {
            Ticks before = from.processes().get(process.getKey());
            long ticks = process.getValue().ticks() - (before == null ? 0 : before.ticks());
            millis.merge(process.getValue().role(), ticks * MILLIS_PER_TICK, Double::sum);
            listed += ticks * MILLIS_PER_TICK;
        }
        double machine = (to.machineBusy() - from.machineBusy()) * MILLIS_PER_TICK;
        millis.merge(Role.OTHER, Math.max(0, machine - listed), Double::sum);
        double perOrder = 1.0 / Math.max(1, orders);
        millis.replaceAll((role, total) -> total * perOrder);
        return new PerOrder(millis, machine * perOrder);
    }

    private static Role role(long pid, String name, Path entry, long self, long serverPid) throws IOException {
        if (pid == self) {
            return Role.HARNESS;
        }
        if (pid == serverPid) {
            return Role.SERVER;
        }
        if (name.equals("postgres")) {
            return Role.POSTGRESQL;
        }
        String commandLine = new String(Files.readAllBytes(entry.resolve("cmdline"))).replace('\0', ' ');
        if (commandLine.contains("ws-server.jar")) {
            return Role.SERVER;
        }
        if (commandLine.contains("io.outboxrelay.devstack.DevStack serve-kafka")) {
            return Role.KAFKA;
        }
        return Role.OTHER;
    }

    /**
     * A process's CPU time in ticks from its {@code /proc/<pid>/stat} line: user and system time, with
     * {@code reapedChildren} also its reaped children's.
     */
    static long ticks(String stat, boolean reapedChildren) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // after the command's name: state is field 3, utime 14, stime 15, cutime 16, cstime 17
        long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return reapedChildren ? own + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : own;
    }

    /** All CPUs' time that was not idle or waiting for I/O, in ticks. */
    private static long machineBusy() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] cpu = lines.get(0).trim().split("\\s+");
            long busy = 0;
            for (int field = 1; field < Math.min(cpu.length, 9); field++) {
                if (field != 4 && field != 5) { // idle, iowait
                    busy += Long.parseLong(cpu[field]);
                }
            }
            return busy;
        } catch (IOException unreadable) {
            throw new IllegalStateException("cannot read /proc/stat", unreadable);
        }
    }
}

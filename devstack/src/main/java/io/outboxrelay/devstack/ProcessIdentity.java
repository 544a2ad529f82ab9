package io.outboxrelay.devstack;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * What tells a server process of the stack from an unrelated process that got its pid later: the pid,
 * the instant the OS started that pid, and the file name of the executable it runs.
 *
 * <p>Deliberately not the command line: on Linux the JDK reports no arguments at all for a process
 * whose command line is longer than a memory page (about 4 kB), and a JVM's class path alone can be
 * that long when the checkout lies deep in the file system. The start instant is in /proc/PID/stat,
 * which anyone can read, and a recycled pid always has a later one.
 *
 * <p>Stored in the component's pid file as the pid on the first line (what a person expects there)
 * followed by {@code started=} and {@code executable=} lines.
 */
record ProcessIdentity(long pid, Instant started, String executable) {

    /**
     * Every JVM turns the kernel's "clock ticks since boot" into an instant with the boot time it read
     * itself; that boot time is given in whole seconds and moves when the wall clock is stepped, so two
     * JVMs may disagree by a second or so about the same process. A recycled pid is far younger than that.
     */
    static final Duration START_TOLERANCE = Duration.ofSeconds(2);

    private static final String STARTED = "started=";
    private static final String EXECUTABLE = "executable=";
    private static final String DELETED_SUFFIX = " (deleted)";

    /** The live process this identity names, if it still runs. */
    Optional<ProcessHandle> find() {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(this::matches);
    }

    private boolean matches(ProcessHandle process) {
        ProcessHandle.Info info = process.info();
        boolean sameStart = info.startInstant()
                .map(actual -> Duration.between(started, actual).abs().compareTo(START_TOLERANCE) <= 0)
                .orElse(false);
        // The executable is only readable for processes we own (or as root); where it is not, the start decides.
        boolean sameExecutable = info.command().map(command -> executableName(command).equals(executable)).orElse(true);
        return sameStart && sameExecutable;
    }

    /**
     * The file name of an executable as /proc/PID/exe shows it; the kernel appends " (deleted)" once
     * the file was replaced on disk (a JDK update, say), which does not make the process someone else's.
     */
    static String executableName(String command) {
        String path = command.endsWith(DELETED_SUFFIX)
                ? command.substring(0, command.length() - DELETED_SUFFIX.length())
                : command;
        Path name = Path.of(path).getFileName();
        return name == null ? path : name.toString();
    }

    String format() {
        return pid + "\n" + STARTED + started + "\n" + EXECUTABLE + executable + "\n";
    }

    /**
     * Reads a pid file. One that holds a pid only was written before identities were recorded; it yields
     * a {@link Legacy} so the caller can still recognise that process the old way rather than orphan it.
     */
    static Optional<Parsed> parse(String content) {
        String[] lines = content.strip().split("\\R");
        try {
            long pid = Long.parseLong(lines[0].trim());
            Instant started = null;
            String executable = null;
            for (String line : lines) {
                if (line.startsWith(STARTED)) {
                    started = Instant.parse(line.substring(STARTED.length()).trim());
                } else if (line.startsWith(EXECUTABLE)) {
                    executable = line.substring(EXECUTABLE.length()).trim();
                }
            }
            if (started == null || executable == null) {
                return Optional.of(new Legacy(pid));
            }
            return Optional.of(new Recorded(new ProcessIdentity(pid, started, executable)));
        } catch (NumberFormatException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The content of a pid file. */
    sealed interface Parsed permits Recorded, Legacy {
    }

    /** A pid file with a full identity. */
    record Recorded(ProcessIdentity identity) implements Parsed {
    }

    /** A pid file holding nothing but the pid. */
    record Legacy(long pid) implements Parsed {
    }
}

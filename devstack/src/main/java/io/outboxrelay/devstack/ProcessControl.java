package io.outboxrelay.devstack;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Starting, identifying and stopping OS processes by pid. */
final class ProcessControl {

    private static final Duration POLL = Duration.ofMillis(100);

    private ProcessControl() {
    }

    /**
     * Starts {@code command} through setsid, detached from our terminal so that it outlives this JVM
     * and ignores a Ctrl-C meant for the CLI. setsid execs rather than forks when its caller is not a
     * process-group leader, which a fresh child never is, so the pid is the server's own.
     * Output is appended to {@code log}.
     */
    static ProcessHandle startDetached(List<String> command, Path log, Path workDir) {
        List<String> full = new ArrayList<>();
        full.add("setsid");
        full.addAll(command);
        try {
            return builder(full, log, workDir).start().toHandle();
        } catch (IOException e) {
            throw new DevStackException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    /** Runs {@code command} to completion with its output appended to {@code log}. */
    static void run(List<String> command, Path log, Path workDir) {
        try {
            int exit = builder(command, log, workDir).start().waitFor();
            if (exit != 0) {
                throw new DevStackException(
                        Path.of(command.get(0)).getFileName() + " failed with exit code " + exit + "; see " + log);
            }
        } catch (IOException e) {
            throw new DevStackException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevStackException("interrupted while running " + command.get(0), e);
        }
    }

    /** Runs a short command and returns its trimmed standard output. */
    static String output(String... command) {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.waitFor() != 0) {
                throw new DevStackException(String.join(" ", command) + " failed");
            }
            return out;
        } catch (IOException e) {
            throw new DevStackException("cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevStackException("interrupted while running " + command[0], e);
        }
    }

    /**
     * Waits until a freshly started process runs {@code executableName} rather than one of the launchers
     * that exec it (the JDK's spawn helper, setsid, setpriv), so that the identity recorded for it holds
     * from then on. Returns early if the process exits (its readiness check reports that, with its log)
     * or if its executable cannot be read (then the start instant alone identifies it).
     */
    static void awaitExec(ProcessHandle process, String executableName, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (process.isAlive()) {
            Optional<String> command = process.info().command();
            if (command.isEmpty() || ProcessIdentity.executableName(command.get()).equals(executableName)) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new DevStackException("process " + process.pid() + " still runs " + command.get()
                        + " rather than " + executableName + " after " + timeout.toSeconds() + " s");
            }
            sleep(Duration.ofMillis(10));
        }
    }

    /**
     * For pid files written before identities were recorded: the live process {@code pid} if its command
     * line contains {@code markers} as consecutive arguments. Unreliable for long command lines, whose
     * arguments the JDK does not report; see {@link ProcessIdentity}.
     */
    static Optional<ProcessHandle> findByMarkers(long pid, List<String> markers) {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(handle -> handle.info().arguments()
                        .map(args -> Collections.indexOfSubList(Arrays.asList(args), markers) >= 0)
                        .orElse(false));
    }

    /**
     * Sends {@code signal} to the process, waits up to {@code grace} for it and every process it had
     * started to exit, then kills whatever is left with SIGKILL.
     */
    static void stop(ProcessHandle process, String signal, Duration grace) {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().collect(Collectors.toList()));
        tree.add(process);
        signal(process.pid(), signal);
        if (awaitExit(tree, Instant.now().plus(grace))) {
            return;
        }
        tree.forEach(ProcessHandle::destroyForcibly);
        if (!awaitExit(tree, Instant.now().plus(Duration.ofSeconds(5)))) {
            throw new DevStackException("process " + process.pid() + " survived SIGKILL");
        }
    }

    /**
     * SIGKILL for the process alone, as in a crash: nothing is asked to shut down cleanly. Processes
     * it had started are given {@code grace} to notice and exit by themselves (PostgreSQL's backends
     * do), then killed too, so that a next start finds none of them.
     */
    static void kill(ProcessHandle process, Duration grace) {
        List<ProcessHandle> children = process.descendants().collect(Collectors.toList());
        process.destroyForcibly();
        if (!awaitExit(List.of(process), Instant.now().plus(Duration.ofSeconds(5)))) {
            throw new DevStackException("process " + process.pid() + " survived SIGKILL");
        }
        if (!awaitExit(children, Instant.now().plus(grace))) {
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean awaitExit(List<ProcessHandle> processes, Instant deadline) {
        while (processes.stream().anyMatch(ProcessHandle::isAlive)) {
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            sleep(POLL);
        }
        return true;
    }

    /** ProcessHandle can only send SIGTERM and SIGKILL; PostgreSQL needs SIGINT for a fast shutdown. */
    private static void signal(long pid, String signal) {
        try {
            new ProcessBuilder("kill", "-s", signal, Long.toString(pid))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            throw new DevStackException("cannot signal process " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevStackException("interrupted while signalling process " + pid, e);
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevStackException("interrupted", e);
        }
    }

    private static ProcessBuilder builder(List<String> command, Path log, Path workDir) {
        return new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }
}

package io.outboxrelay.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A server process of the stack: started detached, tracked by a pid file in the state directory,
 * probed for readiness and stopped by that pid only.
 */
abstract class Component {

    static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final Duration ORPHAN_GRACE = Duration.ofSeconds(10);
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(250);

    protected final StackState state;
    private final String name;
    private final String portKey;

    Component(String name, String portKey, StackState state) {
        this.name = name;
        this.portKey = portKey;
        this.state = state;
    }

    final String name() {
        return name;
    }

    final String portKey() {
        return portKey;
    }

    final int port() {
        return state.requirePort(portKey);
    }

    final Path logFile() {
        return state.file(name + ".log");
    }

    private Path pidFile() {
        return state.file(name + ".pid");
    }

    /** Starts the server process without waiting for it and returns its pid. */
    protected abstract long launch();

    /** One readiness check; throws while the server cannot serve yet. */
    protected abstract void probe() throws Exception;

    /** Consecutive arguments of the server's command line that only this stack's process has. */
    protected abstract List<String> commandLineMarkers();

    /** The signal that asks the server for a clean but prompt shutdown. */
    protected abstract String stopSignal();

    /** The live server process recorded in the pid file, if there is one. */
    final Optional<ProcessHandle> running() {
        Path pidFile = pidFile();
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.UTF_8).trim());
            return ProcessControl.find(pid, commandLineMarkers());
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Fails if the stored port is taken by something other than this server. */
    final void requirePortFree() {
        if (running().isEmpty()) {
            Ports.requireFree(port(), name);
        }
    }

    /** Reuses the running server or starts a new one on the stored port; true if it started one. */
    final boolean ensureLaunched() {
        if (running().isPresent()) {
            return false;
        }
        requirePortFree();
        long pid = launch();
        state.writeFile(pidFile().getFileName().toString(), pid + "\n");
        return true;
    }

    /** Waits until {@link #probe()} succeeds; fails early if the process has died. */
    final void awaitReady(Instant deadline) {
        Exception lastFailure = null;
        while (Instant.now().isBefore(deadline)) {
            if (running().isEmpty()) {
                throw new DevStackException(name + " is not running (it exited or was never started); see " + logFile());
            }
            try {
                probe();
                return;
            } catch (Exception e) {
                lastFailure = e;
            }
            ProcessControl.sleep(PROBE_INTERVAL);
        }
        throw new DevStackException(name + " did not become ready within " + READY_TIMEOUT.toSeconds() + " s"
                + (lastFailure == null ? "" : " (last error: " + lastFailure.getMessage() + ")")
                + "; see " + logFile());
    }

    /** Stops the server if it runs; the data directory and port stay for the next start. */
    final void stop() {
        running().ifPresentOrElse(process -> {
            ProcessControl.stop(process, stopSignal(), STOP_GRACE);
            System.err.println("stack: " + name + " stopped (pid " + process.pid() + ")");
        }, () -> System.err.println("stack: " + name + " was not running"));
        forgetPid();
    }

    /** Crashes the server with SIGKILL, without any shutdown; the data directory and port stay. */
    final void kill() {
        running().ifPresentOrElse(process -> {
            ProcessControl.kill(process, ORPHAN_GRACE);
            System.err.println("stack: " + name + " killed (pid " + process.pid() + ")");
        }, () -> System.err.println("stack: " + name + " was not running"));
        forgetPid();
    }

    private void forgetPid() {
        try {
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            throw new DevStackException("cannot delete " + pidFile() + ": " + e.getMessage(), e);
        }
    }

    /** One line for {@code stack status}. */
    String status() {
        return running()
                .map(process -> name + ": running, pid " + process.pid() + ", port " + port())
                .orElse(name + ": stopped, port " + port());
    }
}

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
    private static final Duration EXEC_TIMEOUT = Duration.ofSeconds(10);

    protected final StackState state;
    private final String name;
    private final String portKey;
    /** The process this object launched in this CLI call, so that a failed start can undo exactly that. */
    private ProcessHandle launchedHere;

    Component(String name, String portKey, StackState state) {
        this.name = name;
        this.portKey = portKey;
        this.state = state;
    }

    final String name() {
        return name;
    }

    /**
     * The port stored under {@code key} (the client port, or another listener's): an explicit one wins,
     * otherwise the stored one is kept, or a free one picked on first use.
     */
    final void assignPort(String key, int requested) {
        Integer stored = state.port(key).orElse(null);
        if (requested == 0) {
            if (stored == null) {
                state.set(key, Integer.toString(Ports.pickFree(state.ports())));
            }
            return;
        }
        if (stored != null && stored != requested && running().isPresent()) {
            throw new DevStackException(name + " already runs on port " + stored
                    + "; stop it before moving it to port " + requested);
        }
        state.set(key, Integer.toString(requested));
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

    /** Starts the server process without waiting for it. */
    protected abstract ProcessHandle launch();

    /** The program the server process runs once the launchers before it (setsid, setpriv) have exec'd it. */
    protected abstract Path executable();

    /** One readiness check; throws while the server cannot serve yet. */
    protected abstract void probe() throws Exception;

    /**
     * Consecutive arguments of the server's command line that only this stack's process has; used only
     * for pid files from before {@link ProcessIdentity} was recorded.
     */
    protected abstract List<String> commandLineMarkers();

    /** The signal that asks the server for a clean but prompt shutdown. */
    protected abstract String stopSignal();

    /** The live server process recorded in the pid file, if there is one and it is still that process. */
    final Optional<ProcessHandle> running() {
        Path pidFile = pidFile();
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        String content;
        try {
            content = Files.readString(pidFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        return ProcessIdentity.parse(content).flatMap(parsed -> {
            if (parsed instanceof ProcessIdentity.Recorded recorded) {
                return recorded.identity().find();
            }
            return ProcessControl.findByMarkers(((ProcessIdentity.Legacy) parsed).pid(), commandLineMarkers());
        });
    }

    /** Fails if the stored port is taken by something other than this server. */
    final void requirePortFree() {
        if (running().isEmpty()) {
            Ports.requireFree(port(), name);
        }
    }

    /** Reuses the running server or starts a new one on the stored port (see {@link #launchedHere()}). */
    final void ensureLaunched() {
        if (running().isPresent()) {
            return;
        }
        requirePortFree();
        ProcessHandle process = launch();
        launchedHere = process;
        String executable = executableName();
        // Recorded at once, so that the pid file names the process even if this CLI dies in the next line.
        ProcessIdentity identity = process.info().startInstant()
                .map(started -> new ProcessIdentity(process.pid(), started, executable))
                .orElseThrow(() -> new DevStackException(name + " exited right after it was started; see " + logFile()));
        state.writeFile(pidFile().getFileName().toString(), identity.format());
        ProcessControl.awaitExec(process, executable, EXEC_TIMEOUT);
    }

    /** The executable's file name as the kernel reports it, i.e. with symbolic links resolved. */
    private String executableName() {
        Path executable = executable();
        try {
            executable = executable.toRealPath();
        } catch (IOException e) {
            // Not there (yet): its own name is the best guess, and launching will report what is missing.
        }
        return executable.getFileName().toString();
    }

    /** Whether this object launched a process in this CLI call that {@link #stopLaunched()} would stop. */
    final boolean launchedHere() {
        return launchedHere != null;
    }

    /**
     * Undoes this object's launch after a failed start. It goes by the handle the launch returned rather
     * than by the pid file, so the process is stopped even if the pid file was never written.
     */
    final void stopLaunched() {
        ProcessHandle process = launchedHere;
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            ProcessControl.stop(process, stopSignal(), STOP_GRACE);
            System.err.println("stack: " + name + " stopped (pid " + process.pid() + ")");
        } else {
            System.err.println("stack: " + name + " had exited (pid " + process.pid() + ")");
        }
        launchedHere = null;
        forgetPid();
    }

    /** Waits until {@link #probe()} succeeds; fails early if the process has died. */
    final void awaitReady(Instant deadline) {
        Exception lastFailure = null;
        while (Instant.now().isBefore(deadline)) {
            if (running().isEmpty()) {
                throw new DevStackException(name + " exited before it was ready; see " + logFile());
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

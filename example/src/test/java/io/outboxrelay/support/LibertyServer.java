package io.outboxrelay.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Liberty's own server script, as an operator runs it, for the tests that start, stop or restart a server. */
public final class LibertyServer {

    private static final Path WLP = Path.of(System.getProperty("it.wlp.home", "target/liberty/wlp"));

    private LibertyServer() {
    }

    /** The folder of the named server. */
    public static Path directory(String name) {
        return WLP.resolve("usr/servers").resolve(name);
    }

    /** The named server's log folder ({@code messages.log}, {@code console.log}, FFDC). */
    public static Path logs(String name) {
        return directory(name).resolve("logs");
    }

    /** The process id of the named, running server's JVM, from the pid file Liberty's script writes. */
    private static long pid(String name) throws IOException {
        return Long.parseLong(Files.readString(WLP.resolve("usr/servers/.pid").resolve(name + ".pid")).trim());
    }

    /** Sends {@code signal} (as {@code kill} names it: STOP, CONT) to the named server's JVM, by its process id. */
    public static void signal(String name, String signal) throws IOException, InterruptedException {
        long pid = pid(name);
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " (server " + name + ") failed");
        }
    }

    /** Runs {@code server <action> <name>} and waits up to three minutes for it; fails with its output otherwise. */
    public static void run(String action, String name) throws IOException, InterruptedException {
        Path output = Files.createTempFile("liberty-server-" + action, ".log");
        try {
            Process process = new ProcessBuilder(WLP.resolve("bin/server").toString(), action, name)
                    .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("server " + action + " " + name + " did not finish within 3 minutes");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("server " + action + " " + name + " exited " + process.exitValue() + ": "
                        + Files.readString(output));
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }
}

package io.outboxrelay.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** What the figures were measured on: cores, memory, OS and Java (no host names or paths). */
record Machine(int cores, long memoryMiB, String os, String java) {

    static Machine describe() {
        long memoryKiB = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memoryKiB = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception unknown) {
            // left at 0
        }
        return new Machine(Runtime.getRuntime().availableProcessors(), memoryKiB / 1024,
                System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vendor") + " " + System.getProperty("java.version"));
    }

    /** A short label for file names, e.g. {@code 2cpu-24gib}. */
    String label() {
        return cores + "cpu-" + Math.round(memoryMiB / 1024.0) + "gib";
    }
}

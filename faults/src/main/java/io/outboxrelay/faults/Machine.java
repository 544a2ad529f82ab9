package io.outboxrelay.faults;

import java.nio.file.Files;
import java.nio.file.Path;

/** What the suite ran on: cores, memory, OS, Java and the stack's shape (no host names or paths). */
final class Machine {

    static String describe(Stack stack) {
        long memoryKiB = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    memoryKiB = Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (Exception unknown) {
            // reported as 0
        }
        return String.format("%d cores, %d GiB, %s %s, Java %s; PostgreSQL 17, Kafka 4.4 with %d node(s)",
                Runtime.getRuntime().availableProcessors(), Math.round(memoryKiB / 1024.0 / 1024.0),
                System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"),
                stack.kafkaNodes());
    }

    private Machine() {
    }
}

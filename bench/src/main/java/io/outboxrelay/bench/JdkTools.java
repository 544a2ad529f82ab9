package io.outboxrelay.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The JDK's tools run against the server's JVM: {@code jcmd} and {@code jstat}. */
final class JdkTools {

    private JdkTools() {
    }

    /** Runs a JDK tool (the one beside this JVM when there is one) and returns what it printed. */
    static String run(String name, String... args) throws Exception {
        Path beside = Path.of(System.getProperty("java.home"), "bin", name);
        List<String> command = new ArrayList<>(List.of(Files.isExecutable(beside) ? beside.toString() : name));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }

    /**
     * One column of a {@code jstat} option's last line, e.g. GCT of {@code -gc} or Time of {@code -compiler}; NaN,
     * with {@code missing} and the reason printed, when jstat could not tell.
     */
    static double jstat(long pid, String option, String column, String missing) {
        try {
            String[] lines = run("jstat", option, Long.toString(pid)).strip().split("\\R");
            List<String> columns = List.of(lines[0].strip().split("\\s+"));
            String[] values = lines[lines.length - 1].strip().split("\\s+");
            int index = columns.indexOf(column);
            if (index < 0 || index >= values.length) {
                throw new IllegalStateException("jstat " + option + " printed no " + column + " column: "
                        + String.join(" / ", lines));
            }
            return Double.parseDouble(values[index].replace(',', '.'));
        } catch (Exception notMeasured) {
            System.out.println(missing + ": " + notMeasured.getMessage());
            return Double.NaN;
        }
    }
}

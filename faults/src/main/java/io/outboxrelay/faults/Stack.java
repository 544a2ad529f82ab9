package io.outboxrelay.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL and Kafka processes of the suite, controlled through the devstack script: every
 * stop, start and kill goes to a pid that the devstack recorded when it started the process.
 */
final class Stack {

    private final Path script;
    private final Path dir;
    private final Map<String, String> env;

    Stack(Path script, Path dir) throws IOException {
        this.script = script;
        this.dir = dir;
        this.env = readEnv(dir.resolve("stack.env"));
    }

    String dbUrl() {
        return "jdbc:postgresql://" + env.get("DB_HOST") + ":" + env.get("DB_PORT") + "/" + env.get("DB_NAME");
    }

    String dbUser() {
        return env.get("DB_USER");
    }

    String dbPassword() {
        return env.get("DB_PASSWORD");
    }

    String bootstrap() {
        return env.get("KAFKA_BOOTSTRAP_SERVERS");
    }

    int kafkaNodes() {
        return Integer.parseInt(env.getOrDefault("KAFKA_NODES", "1"));
    }

    /** The connection settings a server started on this stack needs. */
    Map<String, String> serverEnv() {
        Map<String, String> serverEnv = new LinkedHashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("DB_") || name.equals("KAFKA_BOOTSTRAP_SERVERS")) {
                serverEnv.put(name, value);
            }
        });
        return serverEnv;
    }

    void stopKafka() {
        run("stop-kafka");
    }

    void startKafka() {
        run("start-kafka");
    }

    /** A crash of one broker: SIGKILL, no controlled shutdown. */
    void killKafkaNode(int node) {
        run("kill-kafka", "--node", String.valueOf(node));
    }

    void startKafkaNode(int node) {
        run("start-kafka", "--node", String.valueOf(node));
    }

    void stopPostgres() {
        run("stop-postgres");
    }

    void startPostgres() {
        run("start-postgres");
    }

    /** A crash of PostgreSQL: SIGKILL of the postmaster; the next start runs crash recovery. */
    void killPostgres() {
        run("kill-postgres");
    }

    private void run(String... command) {
        List<String> line = new ArrayList<>(List.of(script.toString()));
        line.addAll(List.of(command));
        line.addAll(List.of("--dir", dir.toString()));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stack-commands.log").toFile()))
                    .start();
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed; see stack-commands.log in " + dir);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run the devstack script", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int equals = line.indexOf('=');
            if (equals > 0 && !line.startsWith("#")) {
                values.put(line.substring(0, equals).trim(), line.substring(equals + 1).trim());
            }
        }
        return values;
    }
}

package io.outboxrelay.devstack;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The parsed arguments of one {@code stack} invocation. */
final class CommandLine {

    /** Internal: the body of the Kafka server JVM that {@code up} and {@code start-kafka} launch. */
    static final String SERVE_KAFKA = "serve-kafka";

    private static final Set<String> COMMANDS = Set.of("up", "down", "status",
            "start-postgres", "stop-postgres", "kill-postgres", "start-kafka", "stop-kafka", "kill-kafka", SERVE_KAFKA);

    /** The commands that act on one Kafka node when given {@code --node}. */
    private static final Set<String> NODE_COMMANDS = Set.of("start-kafka", "stop-kafka", "kill-kafka", SERVE_KAFKA);

    /** More nodes than this would not fit next to a build on a developer machine. */
    static final int MAX_KAFKA_NODES = 9;

    static final String USAGE = String.join("\n",
            "usage: stack <command> --dir <stateDir> [options]",
            "  up --dir D [--pg-port N] [--kafka-port N] [--kafka-sasl-port N] [--kafka-nodes N]",
            "     [--kafka-prop key=value]... [--pg-setting key=value]...",
            "                     start PostgreSQL and Kafka (or reuse them), wait until both serve,",
            "                     print the contents of D/stack.env",
            "  down --dir D       stop both, keeping their data",
            "  start-postgres | stop-postgres --dir D",
            "  start-kafka | stop-kafka --dir D [--node I]",
            "                     start or stop one server (or one Kafka node) on its port, with its data",
            "  kill-kafka --dir D --node I | kill-postgres --dir D",
            "                     crash one Kafka node or PostgreSQL with SIGKILL",
            "  status --dir D     show which server runs, with pid and port (and Kafka node id)");

    final String command;
    final Path dir;
    final int postgresPort;
    final int kafkaPort;
    /** {@code --kafka-sasl-port}: node 1's SASL/SCRAM listener; 0 when not given (stored, or a free one). */
    final int kafkaSaslPort;
    final Map<String, String> kafkaProperties;
    final Map<String, String> postgresSettings;
    /** {@code --kafka-nodes}; 0 when not given (the stored size, or one node). */
    final int kafkaNodes;
    /** {@code --node}; 0 when not given (every node). */
    final int node;

    private CommandLine(String command, Path dir, int postgresPort, int kafkaPort, int kafkaSaslPort,
                        Map<String, String> kafkaProperties, Map<String, String> postgresSettings, int kafkaNodes, int node) {
        this.command = command;
        this.dir = dir;
        this.postgresPort = postgresPort;
        this.kafkaPort = kafkaPort;
        this.kafkaSaslPort = kafkaSaslPort;
        this.kafkaProperties = kafkaProperties;
        this.postgresSettings = postgresSettings;
        this.kafkaNodes = kafkaNodes;
        this.node = node;
    }

    static CommandLine parse(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("missing command");
        }
        if (!COMMANDS.contains(args[0])) {
            throw new IllegalArgumentException("unknown command '" + args[0] + "'");
        }
        Path dir = null;
        int postgresPort = 0;
        int kafkaPort = 0;
        int kafkaSaslPort = 0;
        Map<String, String> kafkaProperties = new LinkedHashMap<>();
        Map<String, String> postgresSettings = new LinkedHashMap<>();
        int kafkaNodes = 0;
        int node = 0;
        for (int i = 1; i < args.length; i += 2) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[i + 1];
            switch (option) {
                case "--dir" -> dir = Path.of(value).toAbsolutePath().normalize();
                case "--pg-port" -> postgresPort = port(option, value);
                case "--kafka-port" -> kafkaPort = port(option, value);
                case "--kafka-sasl-port" -> kafkaSaslPort = port(option, value);
                case "--kafka-prop" -> putProperty(option, kafkaProperties, value);
                case "--pg-setting" -> putProperty(option, postgresSettings, value);
                case "--kafka-nodes" -> kafkaNodes = number(option, value, MAX_KAFKA_NODES);
                case "--node" -> node = number(option, value, MAX_KAFKA_NODES);
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("--dir is required");
        }
        String command = args[0];
        if (node != 0 && !NODE_COMMANDS.contains(command)) {
            throw new IllegalArgumentException("--node applies only to start-kafka, stop-kafka and kill-kafka");
        }
        if (node == 0 && command.equals("kill-kafka")) {
            throw new IllegalArgumentException("kill-kafka needs --node");
        }
        if (kafkaNodes != 0 && !command.equals("up")) {
            throw new IllegalArgumentException("--kafka-nodes applies only to up");
        }
        if (kafkaSaslPort != 0 && !command.equals("up")) {
            throw new IllegalArgumentException("--kafka-sasl-port applies only to up");
        }
        return new CommandLine(command, dir, postgresPort, kafkaPort, kafkaSaslPort, kafkaProperties, postgresSettings,
                kafkaNodes, node);
    }

    private static int number(String option, String value, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number >= 1 && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a number from 1 to " + max + ", not '" + value + "'");
    }

    private static int port(String option, String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a port number, not '" + value + "'");
    }

    private static void putProperty(String option, Map<String, String> properties, String assignment) {
        int equals = assignment.indexOf('=');
        if (equals <= 0) {
            throw new IllegalArgumentException(option + " must be key=value, not '" + assignment + "'");
        }
        properties.put(assignment.substring(0, equals).trim(), assignment.substring(equals + 1).trim());
    }
}

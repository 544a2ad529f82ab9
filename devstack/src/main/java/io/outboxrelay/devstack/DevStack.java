package io.outboxrelay.devstack;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Entry point of the {@code stack} script: a real PostgreSQL and a real single-node KRaft Kafka as
 * detached local processes whose state lives in one directory.
 */
public final class DevStack {

    private static final String ENV_FILE = "stack.env";

    private DevStack() {
    }

    public static void main(String[] args) {
        CommandLine commandLine;
        try {
            commandLine = CommandLine.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("stack: " + e.getMessage());
            System.err.println(CommandLine.USAGE);
            System.exit(2);
            return;
        }
        try {
            run(commandLine);
        } catch (DevStackException e) {
            System.err.println("stack: " + e.getMessage());
            System.exit(1);
        }
        // Kafka client threads may linger; the CLI is done.
        if (!commandLine.command.equals(CommandLine.SERVE_KAFKA)) {
            System.exit(0);
        }
    }

    private static void run(CommandLine commandLine) {
        switch (commandLine.command) {
            case "up" -> up(commandLine);
            case "down" -> StackState.find(commandLine.dir).ifPresentOrElse(DevStack::down,
                    () -> System.err.println("stack: no devstack in " + commandLine.dir + ", nothing to stop"));
            case "start-postgres" -> start(List.of(new Postgres(StackState.load(commandLine.dir))), Instant.now());
            case "stop-postgres" -> new Postgres(StackState.load(commandLine.dir)).stop();
            case "start-kafka" -> start(List.of(new Kafka(StackState.load(commandLine.dir))), Instant.now());
            case "stop-kafka" -> new Kafka(StackState.load(commandLine.dir)).stop();
            case "status" -> status(commandLine);
            case CommandLine.SERVE_KAFKA -> Kafka.serve(StackState.load(commandLine.dir));
            default -> throw new IllegalStateException("unhandled command " + commandLine.command);
        }
    }

    private static void up(CommandLine commandLine) {
        Instant started = Instant.now();
        StackState state = StackState.createOrLoad(commandLine.dir);
        Postgres postgres = new Postgres(state);
        Kafka kafka = new Kafka(state);
        assignPort(state, postgres, commandLine.postgresPort);
        assignPort(state, kafka, commandLine.kafkaPort);
        kafka.assignInternalSettings();
        postgres.assignHome();
        commandLine.kafkaProperties.forEach((key, value) -> state.set(Kafka.PROPERTY_PREFIX + key, value));
        commandLine.postgresSettings.forEach((key, value) -> state.set(Postgres.SETTING_PREFIX + key, value));
        state.save();
        if (!commandLine.kafkaProperties.isEmpty() && kafka.running().isPresent()) {
            System.err.println("stack: kafka already runs; --kafka-prop takes effect after stop-kafka/start-kafka");
        }
        if (!commandLine.postgresSettings.isEmpty() && postgres.running().isPresent()) {
            System.err.println("stack: postgres already runs; --pg-setting takes effect after stop-postgres/start-postgres");
        }

        // Kafka is the slower starter, so it gets going while PostgreSQL is prepared.
        start(List.of(kafka, postgres), started);

        String env = String.join("\n",
                "DB_HOST=" + Ports.LOOPBACK,
                "DB_PORT=" + postgres.port(),
                "DB_NAME=" + Postgres.DATABASE,
                "DB_USER=" + Postgres.USER,
                "DB_PASSWORD=" + Postgres.PASSWORD,
                "KAFKA_BOOTSTRAP_SERVERS=" + kafka.bootstrapServers()) + "\n";
        state.writeFile(ENV_FILE, env);
        System.out.print(env);
    }

    /** An explicit port wins; otherwise the stored one is kept, or a free one picked on first use. */
    private static void assignPort(StackState state, Component component, int requested) {
        Integer stored = state.port(component.portKey()).orElse(null);
        if (requested == 0) {
            if (stored == null) {
                state.set(component.portKey(), Integer.toString(Ports.pickFree(state.ports())));
            }
            return;
        }
        if (stored != null && stored != requested && component.running().isPresent()) {
            throw new DevStackException(component.name() + " already runs on port " + stored
                    + "; stop it before moving it to port " + requested);
        }
        state.set(component.portKey(), Integer.toString(requested));
    }

    /**
     * Launches the components that are not running and waits until all serve. On failure the ones
     * launched here are stopped again, so a failed start leaves no stray server behind.
     */
    private static void start(List<Component> components, Instant started) {
        components.forEach(Component::requirePortFree);
        List<Component> launched = new ArrayList<>();
        try {
            for (Component component : components) {
                if (component.ensureLaunched()) {
                    launched.add(component);
                }
            }
            Instant deadline = started.plus(Component.READY_TIMEOUT);
            components.forEach(component -> awaitReady(component, started, deadline));
        } catch (DevStackException e) {
            launched.forEach(Component::stop);
            throw e;
        }
    }

    private static void awaitReady(Component component, Instant started, Instant deadline) {
        component.awaitReady(deadline);
        System.err.printf("stack: %s ready on port %d after %.1f s%n",
                component.name(), component.port(), Duration.between(started, Instant.now()).toMillis() / 1000.0);
    }

    private static void down(StackState state) {
        for (Component component : List.of(new Kafka(state), new Postgres(state))) {
            component.stop();
        }
    }

    private static void status(CommandLine commandLine) {
        StackState.find(commandLine.dir).ifPresentOrElse(
                state -> List.of(new Postgres(state), new Kafka(state))
                        .forEach(component -> System.out.println(component.status())),
                () -> System.out.println("no devstack in " + commandLine.dir));
    }
}

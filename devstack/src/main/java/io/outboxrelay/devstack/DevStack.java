package io.outboxrelay.devstack;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Entry point of the {@code stack} script: a real PostgreSQL and a real KRaft Kafka (one node, or a
 * cluster of several) as detached local processes whose state lives in one directory.
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
        } catch (RuntimeException e) {
            // Exit rather than let lingering non-daemon threads (Kafka clients) keep a failed CLI alive.
            e.printStackTrace();
            System.err.println("stack: " + commandLine.command + " failed: " + e);
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
            case "kill-postgres" -> new Postgres(StackState.load(commandLine.dir)).kill();
            case "start-kafka" -> start(kafkaNodes(commandLine), Instant.now());
            case "stop-kafka" -> stop(kafkaNodes(commandLine));
            case "kill-kafka" -> kafkaNodes(commandLine).forEach(Component::kill);
            case "status" -> status(commandLine);
            case CommandLine.SERVE_KAFKA -> KafkaNode.serve(StackState.load(commandLine.dir), commandLine.node);
            default -> throw new IllegalStateException("unhandled command " + commandLine.command);
        }
    }

    /** The node named with {@code --node}, or every node. */
    private static List<Component> kafkaNodes(CommandLine commandLine) {
        return List.copyOf(new KafkaCluster(StackState.load(commandLine.dir)).select(commandLine.node));
    }

    private static void up(CommandLine commandLine) {
        Instant started = Instant.now();
        StackState state = StackState.createOrLoad(commandLine.dir);
        KafkaCluster.assignSize(state, commandLine.kafkaNodes);
        KafkaCluster kafka = new KafkaCluster(state);
        Postgres postgres = new Postgres(state);
        postgres.assignPort(postgres.portKey(), commandLine.postgresPort);
        kafka.node(1).assignPort(kafka.node(1).portKey(), commandLine.kafkaPort);
        kafka.node(1).assignSaslPort(commandLine.kafkaSaslPort);
        kafka.assignInternalSettings();
        postgres.assignHome();
        commandLine.kafkaProperties.forEach((key, value) -> state.set(KafkaCluster.PROPERTY_PREFIX + key, value));
        commandLine.postgresSettings.forEach((key, value) -> state.set(Postgres.SETTING_PREFIX + key, value));
        state.save();
        if (!commandLine.kafkaProperties.isEmpty() && kafka.nodes().stream().anyMatch(node -> node.running().isPresent())) {
            System.err.println("stack: kafka already runs; --kafka-prop takes effect after stop-kafka/start-kafka");
        }
        if (!commandLine.postgresSettings.isEmpty() && postgres.running().isPresent()) {
            System.err.println("stack: postgres already runs; --pg-setting takes effect after stop-postgres/start-postgres");
        }

        // Kafka is the slower starter, so it gets going while PostgreSQL is prepared.
        List<Component> components = new ArrayList<>(kafka.nodes());
        components.add(postgres);
        start(components, started);

        List<String> env = new ArrayList<>(List.of(
                "DB_HOST=" + Ports.LOOPBACK,
                "DB_PORT=" + postgres.port(),
                "DB_NAME=" + Postgres.DATABASE,
                "DB_USER=" + Postgres.USER,
                "DB_PASSWORD=" + Postgres.PASSWORD));
        env.addAll(kafka.environment());
        String content = String.join("\n", env) + "\n";
        state.writeFile(ENV_FILE, content);
        System.out.print(content);
    }


    /**
     * Launches the components that are not running and waits until all serve. On any failure the
     * processes launched here are stopped again, so a failed start leaves no stray server behind;
     * servers that were already running before this call are left alone.
     */
    private static void start(List<Component> components, Instant started) {
        components.forEach(Component::requirePortFree);
        try {
            components.forEach(Component::ensureLaunched);
            Instant deadline = started.plus(Component.READY_TIMEOUT);
            components.forEach(component -> awaitReady(component, started, deadline));
        } catch (RuntimeException e) {
            throw undoLaunches(components, e);
        }
    }

    /** Stops what {@link #start} launched and returns the error to report, which says so. */
    private static DevStackException undoLaunches(List<Component> components, RuntimeException failure) {
        String reason = failure instanceof DevStackException ? failure.getMessage() : failure.toString();
        List<Component> launched = components.stream().filter(Component::launchedHere).toList();
        if (launched.isEmpty()) {
            return failure instanceof DevStackException known ? known : new DevStackException(reason, failure);
        }
        String names = launched.stream().map(Component::name).collect(Collectors.joining(", "));
        try {
            inParallel(launched, Component::stopLaunched);
        } catch (RuntimeException stopFailure) {
            failure.addSuppressed(stopFailure);
            return new DevStackException(reason + "; stopping what this call had started (" + names
                    + ") failed too: " + stopFailure.getMessage(), failure);
        }
        return new DevStackException(reason + "; stopped again what this call had started: " + names, failure);
    }

    private static void awaitReady(Component component, Instant started, Instant deadline) {
        component.awaitReady(deadline);
        System.err.printf("stack: %s ready on port %d after %.1f s%n",
                component.name(), component.port(), Duration.between(started, Instant.now()).toMillis() / 1000.0);
    }

    private static void down(StackState state) {
        stop(List.copyOf(new KafkaCluster(state).nodes()));
        new Postgres(state).stop();
    }

    /**
     * Stops the components all at once: a Kafka node's clean shutdown needs the controller quorum,
     * which one by one the last nodes would no longer have.
     */
    private static void stop(List<Component> components) {
        inParallel(components, Component::stop);
    }

    /** Runs {@code action} on every component at once; each runs to its end even if another fails. */
    private static void inParallel(List<Component> components, Consumer<Component> action) {
        if (components.size() == 1) {
            action.accept(components.get(0));
            return;
        }
        ExecutorService executor = Executors.newFixedThreadPool(components.size());
        try {
            List<Future<Object>> stops = executor.invokeAll(components.stream()
                    .map(component -> Executors.callable(() -> action.accept(component)))
                    .toList());
            for (Future<Object> stop : stops) {
                stop.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof DevStackException failure ? failure
                    : new DevStackException("stopping failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DevStackException("interrupted while stopping", e);
        } finally {
            executor.shutdown();
        }
    }

    private static void status(CommandLine commandLine) {
        StackState.find(commandLine.dir).ifPresentOrElse(state -> {
            System.out.println(new Postgres(state).status());
            new KafkaCluster(state).nodes().forEach(node -> System.out.println(node.status()));
        }, () -> System.out.println("no devstack in " + commandLine.dir));
    }
}

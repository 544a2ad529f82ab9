package io.outboxrelay.devstack;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One Kafka node, broker and controller in one child JVM of this jar ({@code serve-kafka}), so its
 * pid is the Kafka JVM itself. A single-node stack keeps the names it always had ({@code kafka},
 * {@code kafka.port}, {@code kafka/data}); in a cluster, node i is {@code kafka-i} with its own ports,
 * data directory, log and pid file.
 */
final class KafkaNode extends Component {

    private final KafkaCluster cluster;
    private final int id;
    private final String controllerPortKey;
    private final String saslPortKey;

    KafkaNode(KafkaCluster cluster, int id) {
        super(cluster.size() == 1 ? "kafka" : "kafka-" + id, settingKey(cluster, id, "port"), cluster.state());
        this.cluster = cluster;
        this.id = id;
        this.controllerPortKey = settingKey(cluster, id, "controller.port");
        this.saslPortKey = settingKey(cluster, id, "sasl.port");
    }

    private static String settingKey(KafkaCluster cluster, int id, String setting) {
        return (cluster.size() == 1 ? "kafka." : "kafka." + id + ".") + setting;
    }

    /** Kafka's {@code node.id} of this node. */
    int id() {
        return id;
    }

    String address() {
        return Ports.LOOPBACK + ":" + port();
    }

    int controllerPort() {
        return state.requirePort(controllerPortKey);
    }

    /** The listener that wants SASL/SCRAM credentials, as a production cluster does (see {@link KafkaCluster#SCRAM_USER}). */
    String saslAddress() {
        return Ports.LOOPBACK + ":" + state.requirePort(saslPortKey);
    }

    /** An explicit port for the SASL listener wins over a stored or free one. */
    void assignSaslPort(int requested) {
        assignPort(saslPortKey, requested);
    }

    /** Picks free loopback ports for whatever this node has none stored for yet. */
    void assignPorts() {
        for (String key : List.of(portKey(), controllerPortKey, saslPortKey)) {
            if (state.port(key).isEmpty()) {
                state.set(key, Integer.toString(Ports.pickFree(state.ports())));
            }
        }
    }

    private Path serverProperties() {
        return state.file(name() + "/server.properties");
    }

    /** A cluster's nodes share the state directory, so each also names its own node id. */
    @Override
    protected List<String> commandLineMarkers() {
        String dir = state.dir().toString();
        return cluster.size() == 1 ? List.of(dir) : List.of("--dir", dir, "--node", Integer.toString(id));
    }

    @Override
    protected String stopSignal() {
        return "TERM";
    }

    @Override
    protected Path executable() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /**
     * The class path goes into an argument file rather than onto the command line: with the jars of a
     * checkout deep in the file system it runs to several kilobytes, and a command line longer than a
     * memory page is one whose arguments the JDK cannot report (see {@link ProcessIdentity}); a short
     * one also keeps {@code ps} readable.
     */
    @Override
    protected ProcessHandle launch() {
        state.writeFile(name() + "/server.properties", render(serverConfig()));
        String argumentFile = name() + "/classpath.args";
        state.writeFile(argumentFile, "-cp " + quoteForArgumentFile(absoluteClassPath()) + "\n");
        List<String> command = new ArrayList<>(List.of(
                executable().toString(),
                "-Xmx512m",
                "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20",
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true",
                "-Ddevstack.log.level=INFO",
                "@" + state.file(argumentFile),
                DevStack.class.getName(), CommandLine.SERVE_KAFKA, "--dir", state.dir().toString()));
        if (cluster.size() > 1) {
            command.addAll(List.of("--node", Integer.toString(id)));
        }
        return ProcessControl.startDetached(command, logFile(), state.dir());
    }

    /** The child JVM must find the jars whatever its working directory is. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * One argument of a java {@code @argfile}: in double quotes, inside which backslash escapes, so that
     * blanks, quotes and {@code #} in a path stay part of it.
     */
    static String quoteForArgumentFile(String argument) {
        return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    Map<String, String> serverConfig() {
        String listener = "PLAINTEXT://" + address();
        String saslListener = "SASL_PLAINTEXT://" + saslAddress();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", Integer.toString(id));
        config.put("controller.quorum.voters", cluster.quorumVoters());
        config.put("listeners", listener + ",CONTROLLER://" + Ports.LOOPBACK + ":" + controllerPort() + "," + saslListener);
        config.put("advertised.listeners", listener + "," + saslListener);
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT");
        // a second listener that authenticates clients with SASL/SCRAM, for proving clients that a secured cluster needs
        config.put("sasl.enabled.mechanisms", KafkaCluster.SCRAM_MECHANISM);
        config.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("log.dirs", state.file(name() + "/data").toString());
        config.put("num.partitions", "3");
        config.put("auto.create.topics.enable", "true");
        // One node: every topic makes do with one replica. Three or more: three replicas, two in sync.
        String replicas = Integer.toString(cluster.replicationFactor());
        String minInsync = Integer.toString(cluster.minInsyncReplicas());
        config.put("default.replication.factor", replicas);
        if (cluster.size() > 1) {
            config.put("min.insync.replicas", minInsync);
        }
        config.put("offsets.topic.replication.factor", replicas);
        config.put("offsets.topic.num.partitions", "1");
        config.put("transaction.state.log.replication.factor", replicas);
        config.put("transaction.state.log.min.isr", minInsync);
        config.put("share.coordinator.state.topic.replication.factor", replicas);
        config.put("share.coordinator.state.topic.min.isr", minInsync);
        config.put("group.initial.rebalance.delay.ms", "0");
        config.putAll(cluster.overrides());
        return config;
    }

    private static String render(Map<String, String> config) {
        return config.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue() + "\n")
                .collect(Collectors.joining());
    }

    /** Runs node {@code id} (0: the only one) in this JVM until it is stopped; the body of {@code serve-kafka}. */
    static void serve(StackState state, int id) {
        KafkaCluster cluster = new KafkaCluster(state);
        String config = cluster.node(id == 0 ? 1 : id).serverProperties().toString();
        String scramUser = KafkaCluster.SCRAM_MECHANISM + "=[name=" + KafkaCluster.SCRAM_USER
                + ",password=" + KafkaCluster.SCRAM_PASSWORD + "]";
        int exit = kafka.tools.StorageTool.execute(new String[] {"format", "--ignore-formatted", "-t", cluster.clusterId(),
                "-c", config, "--add-scram", scramUser}, System.out);
        if (exit != 0) {
            throw new DevStackException("formatting Kafka storage failed with exit code " + exit);
        }
        kafka.Kafka.main(new String[] {config});
    }

    @Override
    protected void probe() throws Exception {
        KafkaReadiness.check(address(), id, cluster.size(), cluster.minInsyncReplicas());
    }

    /** The node id makes it easy to act on the leader that Kafka's Admin API names. */
    @Override
    String status() {
        return super.status() + ", node " + id;
    }
}

package io.outboxrelay.devstack;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A single-node KRaft Kafka (broker and controller in one process) run in a child JVM of this jar
 * ({@code serve-kafka}), so its pid is the Kafka JVM itself.
 */
final class Kafka extends Component {

    static final String PORT_KEY = "kafka.port";
    static final String PROPERTY_PREFIX = "kafka.prop.";
    private static final String CONTROLLER_PORT_KEY = "kafka.controller.port";
    private static final String CLUSTER_ID_KEY = "kafka.cluster.id";
    private static final String READINESS_TOPIC = "devstack-readiness";

    Kafka(StackState state) {
        super("kafka", PORT_KEY, state);
    }

    String bootstrapServers() {
        return Ports.LOOPBACK + ":" + port();
    }

    /** Fixes the internal settings (controller port, cluster id) on first use; later starts reuse them. */
    void assignInternalSettings() {
        if (state.port(CONTROLLER_PORT_KEY).isEmpty()) {
            state.set(CONTROLLER_PORT_KEY, Integer.toString(Ports.pickFree(state.ports())));
        }
        state.getOrCreate(CLUSTER_ID_KEY, Kafka::newClusterId);
    }

    /** The storage tool reads an id starting with '-' as an option. */
    private static String newClusterId() {
        String id;
        do {
            id = Uuid.randomUuid().toString();
        } while (id.startsWith("-"));
        return id;
    }

    private Path serverProperties() {
        return state.file("kafka/server.properties");
    }

    @Override
    protected String commandLineMarker() {
        return state.dir().toString();
    }

    @Override
    protected String stopSignal() {
        return "TERM";
    }

    @Override
    protected long launch() {
        state.writeFile("kafka/server.properties", render(serverConfig()));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20",
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true",
                "-Ddevstack.log.level=INFO",
                "-cp", absoluteClassPath(),
                DevStack.class.getName(), CommandLine.SERVE_KAFKA, "--dir", state.dir().toString()));
        return ProcessControl.startDetached(command, logFile(), state.dir());
    }

    /** The child JVM must find the jars whatever its working directory is. */
    private static String absoluteClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    Map<String, String> serverConfig() {
        int port = port();
        int controllerPort = state.requirePort(CONTROLLER_PORT_KEY);
        Map<String, String> config = new LinkedHashMap<>();
        config.put("process.roles", "broker,controller");
        config.put("node.id", "1");
        config.put("controller.quorum.voters", "1@" + Ports.LOOPBACK + ":" + controllerPort);
        config.put("listeners", "PLAINTEXT://" + Ports.LOOPBACK + ":" + port + ",CONTROLLER://" + Ports.LOOPBACK + ":" + controllerPort);
        config.put("advertised.listeners", "PLAINTEXT://" + Ports.LOOPBACK + ":" + port);
        config.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        config.put("controller.listener.names", "CONTROLLER");
        config.put("inter.broker.listener.name", "PLAINTEXT");
        config.put("log.dirs", state.file("kafka/data").toString());
        config.put("num.partitions", "3");
        config.put("auto.create.topics.enable", "true");
        // One node: every internal topic must make do with one replica.
        config.put("default.replication.factor", "1");
        config.put("offsets.topic.replication.factor", "1");
        config.put("offsets.topic.num.partitions", "1");
        config.put("transaction.state.log.replication.factor", "1");
        config.put("transaction.state.log.min.isr", "1");
        config.put("share.coordinator.state.topic.replication.factor", "1");
        config.put("share.coordinator.state.topic.min.isr", "1");
        config.put("group.initial.rebalance.delay.ms", "0");
        config.putAll(state.withPrefix(PROPERTY_PREFIX));
        return config;
    }

    private static String render(Map<String, String> config) {
        return config.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue() + "\n")
                .collect(Collectors.joining());
    }

    /** Runs the Kafka server in this JVM until it is stopped; the body of {@code serve-kafka}. */
    static void serve(StackState state) {
        String config = new Kafka(state).serverProperties().toString();
        String clusterId = state.get(CLUSTER_ID_KEY)
                .orElseThrow(() -> new DevStackException("no Kafka cluster id in " + state.dir()));
        int exit = kafka.tools.StorageTool.execute(
                new String[] {"format", "--ignore-formatted", "-t", clusterId, "-c", config}, System.out);
        if (exit != 0) {
            throw new DevStackException("formatting Kafka storage failed with exit code " + exit);
        }
        kafka.Kafka.main(new String[] {config});
    }

    /** Ready means a record produced with acks=all was acknowledged, not merely an open port. */
    @Override
    protected void probe() throws Exception {
        try (Admin admin = Admin.create(clientConfig(Map.of(
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000")))) {
            if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                throw new IllegalStateException("no broker in the cluster yet");
            }
            createReadinessTopic(admin);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(clientConfig(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "8000")),
                new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(READINESS_TOPIC, "ready")).get(10, TimeUnit.SECONDS);
        }
    }

    /** Created explicitly because auto-creation may be switched off. */
    private static void createReadinessTopic(Admin admin) throws Exception {
        try {
            admin.createTopics(List.of(new NewTopic(READINESS_TOPIC, 1, (short) 1))).all().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private Properties clientConfig(Map<String, String> specific) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "devstack-readiness");
        config.putAll(specific);
        return config;
    }
}

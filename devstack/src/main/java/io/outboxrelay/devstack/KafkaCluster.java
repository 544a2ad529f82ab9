package io.outboxrelay.devstack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;

/**
 * The stack's KRaft Kafka: one node, or N nodes that are each broker and controller, sharing one
 * cluster id and one static controller quorum. Nodes are numbered 1..N, and that number is the
 * node's Kafka {@code node.id}, so a leader found with Kafka's Admin API names the node to act on.
 */
final class KafkaCluster {

    static final String PROPERTY_PREFIX = "kafka.prop.";
    static final String SIZE_KEY = "kafka.nodes";
    static final String CLUSTER_ID_KEY = "kafka.cluster.id";
    /** The SASL listener's one user, created when the storage is formatted; a development stack's fixed secret, as PostgreSQL's. */
    static final String SCRAM_MECHANISM = "SCRAM-SHA-256";
    static final String SCRAM_USER = "outbox";
    static final String SCRAM_PASSWORD = "outbox";

    private final StackState state;
    private final int size;
    private final List<KafkaNode> nodes;

    KafkaCluster(StackState state) {
        this.state = state;
        this.size = storedSize(state).orElse(1);
        this.nodes = IntStream.rangeClosed(1, size).mapToObj(id -> new KafkaNode(this, id)).toList();
    }

    /**
     * Fixes the number of nodes on first use; {@code requested} 0 keeps the stored number, or one node.
     * The storage is formatted for one controller quorum, so a state directory keeps its number of nodes.
     */
    static void assignSize(StackState state, int requested) {
        Optional<Integer> stored = storedSize(state);
        if (requested != 0 && stored.isPresent() && stored.get() != requested) {
            throw new DevStackException("the Kafka in " + state.dir() + " has " + stored.get()
                    + " node(s), not " + requested + "; use another --dir for another number of nodes");
        }
        state.set(SIZE_KEY, Integer.toString(requested != 0 ? requested : stored.orElse(1)));
    }

    /** A state directory from before the number of nodes was stored holds one node. */
    private static Optional<Integer> storedSize(StackState state) {
        return state.get(SIZE_KEY).map(Integer::parseInt)
                .or(() -> state.get(CLUSTER_ID_KEY).map(clusterId -> 1));
    }

    /** Fixes every node's ports and the cluster id on first use; later starts reuse them. */
    void assignInternalSettings() {
        nodes.forEach(KafkaNode::assignPorts);
        state.getOrCreate(CLUSTER_ID_KEY, KafkaCluster::newClusterId);
    }

    /** The storage tool reads an id starting with '-' as an option. */
    private static String newClusterId() {
        String id;
        do {
            id = Uuid.randomUuid().toString();
        } while (id.startsWith("-"));
        return id;
    }

    StackState state() {
        return state;
    }

    int size() {
        return size;
    }

    List<KafkaNode> nodes() {
        return nodes;
    }

    KafkaNode node(int id) {
        if (id < 1 || id > size) {
            throw new DevStackException("the Kafka in " + state.dir() + " has no node " + id
                    + (size == 1 ? "; it has node 1 only" : "; its nodes are 1 to " + size));
        }
        return nodes.get(id - 1);
    }

    /** The nodes a command acts on: {@code id} 0 means every node. */
    List<KafkaNode> select(int id) {
        return id == 0 ? nodes : List.of(node(id));
    }

    String clusterId() {
        return state.get(CLUSTER_ID_KEY)
                .orElseThrow(() -> new DevStackException("no Kafka cluster id in " + state.dir()));
    }

    String bootstrapServers() {
        return nodes.stream().map(KafkaNode::address).collect(Collectors.joining(","));
    }

    String saslBootstrapServers() {
        return nodes.stream().map(KafkaNode::saslAddress).collect(Collectors.joining(","));
    }

    String quorumVoters() {
        return nodes.stream()
                .map(node -> node.id() + "@" + Ports.LOOPBACK + ":" + node.controllerPort())
                .collect(Collectors.joining(","));
    }

    /** Replicas of every topic that does not ask otherwise: three once there are three nodes. */
    int replicationFactor() {
        return Math.min(size, 3);
    }

    /** With three replicas an acks=all write still succeeds while one node is down. */
    int minInsyncReplicas() {
        return Math.max(1, replicationFactor() - 1);
    }

    /** The {@code --kafka-prop} overrides, applied to every node. */
    Map<String, String> overrides() {
        return state.withPrefix(PROPERTY_PREFIX);
    }

    /** The Kafka lines of {@code stack.env}. */
    List<String> environment() {
        List<String> lines = new ArrayList<>();
        lines.add("KAFKA_BOOTSTRAP_SERVERS=" + bootstrapServers());
        lines.add("KAFKA_NODES=" + size);
        nodes.forEach(node -> lines.add("KAFKA_NODE_" + node.id() + "_PORT=" + node.port()));
        lines.add("KAFKA_SASL_BOOTSTRAP_SERVERS=" + saslBootstrapServers());
        lines.add("KAFKA_SASL_MECHANISM=" + SCRAM_MECHANISM);
        lines.add("KAFKA_SASL_USERNAME=" + SCRAM_USER);
        lines.add("KAFKA_SASL_PASSWORD=" + SCRAM_PASSWORD);
        return lines;
    }
}

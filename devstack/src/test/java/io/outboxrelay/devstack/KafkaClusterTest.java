package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClusterTest {

    @TempDir
    Path dir;

    @Test
    void aStateDirectoryKeepsTheNumberOfNodesItWasCreatedWith() {
        StackState state = StackState.createOrLoad(dir);
        KafkaCluster.assignSize(state, 3);
        state.save();

        StackState later = StackState.load(dir);
        KafkaCluster.assignSize(later, 0);

        assertEquals(3, new KafkaCluster(later).size());
        assertThrows(DevStackException.class, () -> KafkaCluster.assignSize(later, 1));
    }

    @Test
    void aStateDirectoryFromBeforeClustersHoldsOneNode() {
        StackState state = StackState.createOrLoad(dir);
        state.set(KafkaCluster.CLUSTER_ID_KEY, "Ab3x");

        assertEquals(1, new KafkaCluster(state).size());
        assertThrows(DevStackException.class, () -> KafkaCluster.assignSize(state, 3));
        KafkaCluster.assignSize(state, 1);
        assertEquals(1, new KafkaCluster(state).size());
    }

    @Test
    void theEnvironmentNamesEveryNodeByItsKafkaNodeId() {
        StackState state = StackState.createOrLoad(dir);
        KafkaCluster.assignSize(state, 3);
        state.set("kafka.1.port", "19001");
        state.set("kafka.2.port", "19002");
        state.set("kafka.3.port", "19003");
        state.set("kafka.1.sasl.port", "19101");
        state.set("kafka.2.sasl.port", "19102");
        state.set("kafka.3.sasl.port", "19103");
        KafkaCluster cluster = new KafkaCluster(state);
        cluster.assignInternalSettings();

        assertEquals(List.of(
                "KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:19001,127.0.0.1:19002,127.0.0.1:19003",
                "KAFKA_NODES=3",
                "KAFKA_NODE_1_PORT=19001",
                "KAFKA_NODE_2_PORT=19002",
                "KAFKA_NODE_3_PORT=19003",
                "KAFKA_SASL_BOOTSTRAP_SERVERS=127.0.0.1:19101,127.0.0.1:19102,127.0.0.1:19103",
                "KAFKA_SASL_MECHANISM=SCRAM-SHA-256",
                "KAFKA_SASL_USERNAME=outbox",
                "KAFKA_SASL_PASSWORD=outbox"), cluster.environment());
        assertEquals(19002, cluster.node(2).port());
    }

    @Test
    void aSingleNodeKeepsItsBootstrapServers() {
        StackState state = StackState.createOrLoad(dir);
        state.set("kafka.port", "19092");
        KafkaCluster.assignSize(state, 0);
        KafkaCluster cluster = new KafkaCluster(state);
        cluster.node(1).assignSaslPort(19093);
        cluster.assignInternalSettings();

        assertEquals(List.of("KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:19092", "KAFKA_NODES=1", "KAFKA_NODE_1_PORT=19092",
                        "KAFKA_SASL_BOOTSTRAP_SERVERS=127.0.0.1:19093", "KAFKA_SASL_MECHANISM=SCRAM-SHA-256",
                        "KAFKA_SASL_USERNAME=outbox", "KAFKA_SASL_PASSWORD=outbox"),
                cluster.environment());
    }

    @Test
    void commandsActOnOneNamedNodeOrOnAll() {
        StackState state = StackState.createOrLoad(dir);
        KafkaCluster.assignSize(state, 3);
        KafkaCluster cluster = new KafkaCluster(state);

        assertEquals(cluster.nodes(), cluster.select(0));
        assertEquals(List.of(cluster.node(2)), cluster.select(2));
        assertEquals(2, cluster.select(2).get(0).id());
        assertThrows(DevStackException.class, () -> cluster.select(4));
    }
}

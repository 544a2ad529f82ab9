package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaNodeTest {

    @TempDir
    Path dir;

    @Test
    void singleNodeBindsLoopbackOnlyKeepsItsLayoutAndAppliesOverridesLast() {
        StackState state = StackState.createOrLoad(dir);
        state.set("kafka.port", "19092");
        state.set(KafkaCluster.PROPERTY_PREFIX + "auto.create.topics.enable", "false");
        KafkaCluster.assignSize(state, 0);
        KafkaCluster cluster = new KafkaCluster(state);
        cluster.assignInternalSettings();

        Map<String, String> config = cluster.node(1).serverConfig();

        assertEquals("1", config.get("node.id"));
        String sasl = cluster.node(1).saslAddress();
        assertEquals("PLAINTEXT://127.0.0.1:19092,SASL_PLAINTEXT://" + sasl, config.get("advertised.listeners"));
        assertEquals("SCRAM-SHA-256", config.get("sasl.enabled.mechanisms"));
        assertEquals("false", config.get("auto.create.topics.enable"));
        assertEquals("1", config.get("offsets.topic.num.partitions"));
        assertEquals("1", config.get("default.replication.factor"));
        assertEquals("1", config.get("transaction.state.log.min.isr"));
        assertFalse(config.containsKey("min.insync.replicas"));
        assertEquals(dir.resolve("kafka/data").toString(), config.get("log.dirs"));
        String controller = config.get("controller.quorum.voters").replace("1@", "");
        assertEquals("PLAINTEXT://127.0.0.1:19092,CONTROLLER://" + controller + ",SASL_PLAINTEXT://" + sasl, config.get("listeners"));
        assertEquals("kafka", cluster.node(1).name());
    }

    @Test
    void internalSettingsSurviveAReload() {
        StackState state = StackState.createOrLoad(dir);
        state.set("kafka.port", "19092");
        KafkaCluster.assignSize(state, 0);
        new KafkaCluster(state).assignInternalSettings();
        state.save();

        StackState reloaded = StackState.load(dir);
        Map<String, String> before = new KafkaCluster(state).node(1).serverConfig();
        new KafkaCluster(reloaded).assignInternalSettings();

        assertEquals(before, new KafkaCluster(reloaded).node(1).serverConfig());
        assertNotEquals(19092, reloaded.requirePort("kafka.controller.port"));
        assertFalse(reloaded.get("kafka.cluster.id").orElseThrow().startsWith("-"));
    }

    @Test
    void everyNodeOfAThreeNodeClusterHasItsOwnIdPortsAndDataButOneQuorum() {
        KafkaCluster cluster = threeNodes();

        Set<String> ports = new HashSet<>();
        for (KafkaNode node : cluster.nodes()) {
            Map<String, String> config = node.serverConfig();
            String id = Integer.toString(node.id());
            assertEquals(id, config.get("node.id"));
            assertEquals("kafka-" + id, node.name());
            assertEquals("broker,controller", config.get("process.roles"));
            assertEquals(dir.resolve("kafka-" + id + "/data").toString(), config.get("log.dirs"));
            assertEquals("PLAINTEXT://127.0.0.1:" + node.port() + ",SASL_PLAINTEXT://" + node.saslAddress(),
                    config.get("advertised.listeners"));
            assertEquals("PLAINTEXT://127.0.0.1:" + node.port() + ",CONTROLLER://127.0.0.1:" + node.controllerPort()
                    + ",SASL_PLAINTEXT://" + node.saslAddress(), config.get("listeners"));
            assertEquals(cluster.quorumVoters(), config.get("controller.quorum.voters"));
            ports.add(Integer.toString(node.port()));
            ports.add(Integer.toString(node.controllerPort()));
            ports.add(node.saslAddress());
        }
        assertEquals(9, ports.size());
        List<KafkaNode> nodes = cluster.nodes();
        assertEquals("1@127.0.0.1:" + nodes.get(0).controllerPort()
                + ",2@127.0.0.1:" + nodes.get(1).controllerPort()
                + ",3@127.0.0.1:" + nodes.get(2).controllerPort(), cluster.quorumVoters());
    }

    @Test
    void threeNodesReplicateEverythingThreeTimesWithTwoInSyncAndTakeOverridesOnEveryNode() {
        StackState state = StackState.createOrLoad(dir);
        state.set(KafkaCluster.PROPERTY_PREFIX + "min.insync.replicas", "3");
        KafkaCluster cluster = threeNodes(state);

        for (KafkaNode node : cluster.nodes()) {
            Map<String, String> config = node.serverConfig();
            assertEquals("3", config.get("default.replication.factor"));
            assertEquals("3", config.get("min.insync.replicas"));
            assertEquals("3", config.get("offsets.topic.replication.factor"));
            assertEquals("3", config.get("transaction.state.log.replication.factor"));
            assertEquals("2", config.get("transaction.state.log.min.isr"));
            assertEquals("3", config.get("num.partitions"));
            assertEquals("1", config.get("offsets.topic.num.partitions"));
            assertEquals("0", config.get("group.initial.rebalance.delay.ms"));
        }
        assertEquals(2, threeNodes().minInsyncReplicas());
    }

    /** The Kafka JVM reads its class path from an argument file; a path with odd characters must survive it. */
    @Test
    void theClassPathArgumentFileKeepsBlanksQuotesBackslashesAndHashes() throws Exception {
        Path odd = Files.createDirectories(dir.resolve("a b\"c\\d#e$f'g"));
        Path argumentFile = dir.resolve("classpath.args");
        Files.writeString(argumentFile, "-cp " + KafkaNode.quoteForArgumentFile(odd + ":" + dir) + "\n");

        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + argumentFile, "-XshowSettings:properties", "-version")
                .redirectErrorStream(true)
                .start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, java.waitFor(), output);
        assertTrue(output.contains("java.class.path = " + odd), output);
    }

    private KafkaCluster threeNodes() {
        return threeNodes(StackState.createOrLoad(dir));
    }

    private static KafkaCluster threeNodes(StackState state) {
        KafkaCluster.assignSize(state, 3);
        KafkaCluster cluster = new KafkaCluster(state);
        cluster.assignInternalSettings();
        return cluster;
    }
}

package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaTest {

    @TempDir
    Path dir;

    @Test
    void configBindsLoopbackOnlyAndAppliesOverridesLast() {
        StackState state = StackState.createOrLoad(dir);
        state.set(Kafka.PORT_KEY, "19092");
        state.set(Kafka.PROPERTY_PREFIX + "auto.create.topics.enable", "false");
        Kafka kafka = new Kafka(state);
        kafka.assignInternalSettings();

        Map<String, String> config = kafka.serverConfig();

        assertEquals("PLAINTEXT://127.0.0.1:19092", config.get("advertised.listeners"));
        assertEquals("false", config.get("auto.create.topics.enable"));
        assertEquals("1", config.get("offsets.topic.num.partitions"));
        assertEquals(dir.resolve("kafka/data").toString(), config.get("log.dirs"));
        String controller = config.get("controller.quorum.voters").replace("1@", "");
        assertEquals("PLAINTEXT://127.0.0.1:19092,CONTROLLER://" + controller, config.get("listeners"));
    }

    @Test
    void internalSettingsSurviveAReload() {
        StackState state = StackState.createOrLoad(dir);
        state.set(Kafka.PORT_KEY, "19092");
        new Kafka(state).assignInternalSettings();
        state.save();

        StackState reloaded = StackState.load(dir);
        Map<String, String> before = new Kafka(state).serverConfig();
        new Kafka(reloaded).assignInternalSettings();

        assertEquals(before, new Kafka(reloaded).serverConfig());
        assertNotEquals(19092, reloaded.requirePort("kafka.controller.port"));
        assertFalse(reloaded.get("kafka.cluster.id").orElseThrow().startsWith("-"));
    }
}

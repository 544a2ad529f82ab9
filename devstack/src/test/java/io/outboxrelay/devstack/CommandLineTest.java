package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    @Test
    void parsesEveryOptionOfUp() {
        CommandLine line = CommandLine.parse(new String[] {
            "up", "--dir", "state/../ds", "--pg-port", "15432", "--kafka-port", "0", "--kafka-sasl-port", "19093",
            "--kafka-prop", "auto.create.topics.enable=false", "--kafka-prop", "log.retention.ms=a=b",
            "--pg-setting", "wal_level=logical"});

        assertEquals("up", line.command);
        assertEquals(Path.of("ds").toAbsolutePath(), line.dir);
        assertEquals(15432, line.postgresPort);
        assertEquals(0, line.kafkaPort);
        assertEquals(19093, line.kafkaSaslPort);
        assertEquals(Map.of("auto.create.topics.enable", "false", "log.retention.ms", "a=b"), line.kafkaProperties);
        assertEquals(Map.of("wal_level", "logical"), line.postgresSettings);
        assertEquals(0, line.kafkaNodes);
    }

    @Test
    void parsesTheClusterSizeAndTheNodeToActOn() {
        assertEquals(3, CommandLine.parse(new String[] {"up", "--dir", "d", "--kafka-nodes", "3"}).kafkaNodes);
        assertEquals(2, CommandLine.parse(new String[] {"kill-kafka", "--dir", "d", "--node", "2"}).node);
        assertEquals(1, CommandLine.parse(new String[] {"stop-kafka", "--dir", "d", "--node", "1"}).node);
        assertEquals(0, CommandLine.parse(new String[] {"start-kafka", "--dir", "d"}).node);
        assertEquals("kill-postgres", CommandLine.parse(new String[] {"kill-postgres", "--dir", "d"}).command);
    }

    @Test
    void rejectsANodeWhereItMeansNothingAndAKillWithoutOne() {
        assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(new String[] {"kill-kafka", "--dir", "d"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"start-kafka", "--dir", "d", "--kafka-sasl-port", "19093"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--node", "1"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"kill-kafka", "--dir", "d", "--node", "0"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--kafka-nodes", "0"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--kafka-nodes", "three"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"start-kafka", "--dir", "d", "--kafka-nodes", "3"}));
    }

    @Test
    void portsDefaultToZeroMeaningPickOne() {
        CommandLine line = CommandLine.parse(new String[] {"status", "--dir", "/tmp/x"});

        assertEquals(0, line.postgresPort);
        assertEquals(0, line.kafkaPort);
        assertTrue(line.kafkaProperties.isEmpty());
    }

    @Test
    void rejectsMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(new String[] {}));
        assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(new String[] {"up"}));
        assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(new String[] {"restart", "--dir", "d"}));
        assertThrows(IllegalArgumentException.class, () -> CommandLine.parse(new String[] {"up", "--dir"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--pg-port", "70000"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--kafka-prop", "novalue"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--pg-setting", "=logical"}));
        assertThrows(IllegalArgumentException.class,
                () -> CommandLine.parse(new String[] {"up", "--dir", "d", "--verbose", "x"}));
    }
}

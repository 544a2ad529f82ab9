package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortsTest {

    @Test
    void picksAFreePortOutsideTheExclusions() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(Ports.LOOPBACK))) {
            int port = Ports.pickFree(Set.of(taken.getLocalPort()));

            assertNotEquals(taken.getLocalPort(), port);
            assertNotEquals(5432, port);
            assertNotEquals(9092, port);
            assertTrue(Ports.isFree(port));
            assertFalse(Ports.isFree(taken.getLocalPort()));
        }
    }
}

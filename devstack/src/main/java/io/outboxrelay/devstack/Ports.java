package io.outboxrelay.devstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Collection;
import java.util.Set;

/** Loopback port selection. */
final class Ports {

    static final String LOOPBACK = "127.0.0.1";

    /** The well-known ports of a PostgreSQL or Kafka that may already run on the machine. */
    private static final Set<Integer> RESERVED = Set.of(5432, 9092);

    private Ports() {
    }

    /** A currently free loopback port that is neither reserved nor in {@code exclude}. */
    static int pickFree(Collection<Integer> exclude) {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
                int port = socket.getLocalPort();
                if (!RESERVED.contains(port) && !exclude.contains(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new DevStackException("cannot find a free loopback port: " + e.getMessage(), e);
            }
        }
    }

    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(LOOPBACK, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static void requireFree(int port, String owner) {
        if (!isFree(port)) {
            throw new DevStackException("port " + port + " for " + owner
                    + " is in use by another process; choose another with up --pg-port / --kafka-port");
        }
    }
}

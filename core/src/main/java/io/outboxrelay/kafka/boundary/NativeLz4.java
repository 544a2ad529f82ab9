package io.outboxrelay.kafka.boundary;

import net.jpountz.lz4.LZ4Factory;

import java.util.logging.Logger;

/**
 * Kafka's LZ4 codec through lz4-java's native library, where that loads. lz4-java takes its native binding by
 * itself only when the library is loaded already or its own classes come from the JVM's class path; in an
 * application server they come from the application's class loader, so without this every producer of the server
 * compressed with the pure-Java codec (in a profile of a drain, 2026-12-06: 15% of the server's execution samples,
 * on the producer's one network thread; natively the server spent 3% less CPU per event), while a producer on the
 * class path, as in the benchmark's harness, got the native one. Once the library is loaded, each LZ4 codec Kafka
 * makes in this class loader is native. Where it cannot load (no binary for the platform, a temporary folder that
 * may not hold executable code), the Java codec stays.
 */
public final class NativeLz4 {

    private static final Logger LOG = Logger.getLogger(NativeLz4.class.getName());
    private static boolean tried;

    private NativeLz4() {
    }

    /** Loads the native library, once; says in the log which codec Kafka's LZ4 compression uses from now on. */
    public static synchronized void load() {
        if (tried) {
            return;
        }
        tried = true;
        try {
            LZ4Factory.nativeInstance(); // loaded: the fastestInstance() Kafka asks for is native from now on
            LOG.info("Kafka's LZ4 compression: native");
        } catch (Throwable unavailable) { // UnsatisfiedLinkError, or the library's own refusal
            LOG.info(() -> "Kafka's LZ4 compression stays in Java: the native library did not load ("
                    + unavailable + ")");
        }
    }
}

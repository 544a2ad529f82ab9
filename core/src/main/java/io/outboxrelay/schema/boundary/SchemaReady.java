package io.outboxrelay.schema.boundary;

import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Opens once the schema migration has finished. Work that can start before the application
 * has (message channels deliver as soon as CDI is up) waits here rather than on the startup
 * bean itself, which refuses callers until it has started. An application with a migration of its
 * own can wait the same way with a subclass of its own type.
 */
@ApplicationScoped
public class SchemaReady {

    private final CountDownLatch migrated = new CountDownLatch(1);

    protected void open() {
        migrated.countDown();
    }

    /** Blocks until the schema is migrated; false if that did not happen within {@code patience}. */
    public boolean await(Duration patience) {
        try {
            return migrated.await(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

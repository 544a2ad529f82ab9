package io.outboxrelay.example.schema;

import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Opens once the sample's tables exist: message channels may deliver before the application has started. */
@ApplicationScoped
public class SampleSchema {

    private final CountDownLatch migrated = new CountDownLatch(1);

    void migrated() {
        migrated.countDown();
    }

    /** Blocks until the sample's schema is migrated; false if that did not happen within {@code patience}. */
    public boolean await(Duration patience) {
        try {
            return migrated.await(patience.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

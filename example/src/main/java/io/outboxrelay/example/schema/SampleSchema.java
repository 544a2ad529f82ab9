package io.outboxrelay.example.schema;

import io.outboxrelay.schema.boundary.SchemaReady;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;

/**
 * Opens once the sample's tables exist: message channels may deliver before the application has started.
 * Of its own type only, so the core's {@link SchemaReady} stays the one bean of that type.
 */
@ApplicationScoped
@Typed(SampleSchema.class)
public class SampleSchema extends SchemaReady {

    void migrated() {
        open();
    }
}

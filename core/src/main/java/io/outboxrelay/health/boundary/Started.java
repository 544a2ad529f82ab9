package io.outboxrelay.health.boundary;

import io.outboxrelay.schema.boundary.SchemaReady;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

import java.time.Duration;

/** Started once the schema is migrated (the relay and the consumers wait for that). */
@Startup
@ApplicationScoped
public class Started implements HealthCheck {

    @Inject
    SchemaReady schema;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("schema-migrated").status(schema.await(Duration.ZERO)).build();
    }
}

package io.outboxrelay;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Every REST resource of Outbox Relay lives under {@code /api}. */
@ApplicationPath("/api")
public class RestApplication extends Application {
}

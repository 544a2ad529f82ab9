package io.outboxrelay.example.profile;

import io.outboxrelay.profile.boundary.ProductionCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;

/**
 * The sample itself must not reach production: its orders API answers anyone without authentication, so the
 * example never starts in the production profile (a team's own application does, with its own checks). It also
 * names the settings that would make matters worse: demo traffic and the benchmark's switch.
 */
@ApplicationScoped
public class SampleProductionCheck implements ProductionCheck {

    @Inject
    @ConfigProperty(name = "outbox.demo.enabled", defaultValue = "false")
    boolean demo;

    @Inject
    @ConfigProperty(name = "outbox.sample.orders.append-events", defaultValue = "true")
    boolean appendEvents;

    @Override
    public List<String> localOnlySettings() {
        return found(demo, appendEvents);
    }

    static final String UNAUTHENTICATED_API = "the example's orders API (/api/orders) answers anyone without"
            + " authentication: the example is a sample, not for production; deploy your own application with the core"
            + " (and the console), or outbox-relay-server.war";

    static List<String> found(boolean demo, boolean appendEvents) {
        List<String> found = new ArrayList<>();
        found.add(UNAUTHENTICATED_API);
        if (demo) {
            found.add("OUTBOX_DEMO_ENABLED is true: demo traffic writes sample orders and poison events");
        }
        if (!appendEvents) {
            found.add("OUTBOX_SAMPLE_ORDERS_APPEND_EVENTS is false: orders would change without their events "
                    + "(a switch for the benchmark only)");
        }
        return found;
    }
}

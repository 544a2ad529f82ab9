package io.outboxrelay.adoption.payments;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Like most applications: every resource and provider of the WAR under /api. */
@ApplicationPath("/api")
public class PaymentsApi extends Application {
}

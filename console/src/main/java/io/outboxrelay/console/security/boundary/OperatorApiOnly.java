package io.outboxrelay.console.security.boundary;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.UriInfo;

/**
 * The operator API's resources answer only under the operator API ({@code /outbox/api}). An application
 * whose JAX-RS {@code Application} lists no classes gets every resource of its WAR, the console's
 * included, but without the operator API's authentication filter, strict JSON and problem mapping: there
 * they answer 404 rather than serve, say, a bulk replay whose misspelt filter field went unnoticed.
 */
public final class OperatorApiOnly {

    public static final String BASE_PATH = "/outbox/api/";

    private OperatorApiOnly() {
    }

    public static void require(UriInfo uri) {
        if (!uri.getBaseUri().getPath().endsWith(BASE_PATH)) {
            throw new NotFoundException();
        }
    }
}

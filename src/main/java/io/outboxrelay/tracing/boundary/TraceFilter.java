package io.outboxrelay.tracing.boundary;

import io.outboxrelay.tracing.control.RequestTrace;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;

import java.util.UUID;

/**
 * Reads {@code X-Correlation-Id} and {@code traceparent} from each API request (a missing or
 * malformed one gets a fresh one: a new trace starts here) and echoes the correlation id in the
 * response.
 */
@Provider
@PreMatching
public class TraceFilter implements ContainerRequestFilter, ContainerResponseFilter {

    public static final String CORRELATION_HEADER = "X-Correlation-Id";
    public static final String TRACEPARENT_HEADER = "traceparent";

    @Inject
    RequestTrace trace;

    @Override
    public void filter(ContainerRequestContext request) {
        trace.correlationId(request.getHeaderString(CORRELATION_HEADER));
        if (trace.correlationId().isEmpty()) {
            trace.correlationId(UUID.randomUUID().toString());
        }
        trace.traceparent(request.getHeaderString(TRACEPARENT_HEADER));
        if (trace.traceparent().isEmpty()) {
            trace.traceparent(RequestTrace.newTraceparent(java.util.concurrent.ThreadLocalRandom.current()));
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        trace.correlationId().ifPresent(id -> response.getHeaders().putSingle(CORRELATION_HEADER, id));
    }
}

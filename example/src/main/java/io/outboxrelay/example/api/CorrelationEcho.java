package io.outboxrelay.example.api;

import io.outboxrelay.tracing.boundary.RequestTrace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/**
 * Answers each sample API request with its correlation id: the one it brought, or the fresh one the
 * request's events were stored with.
 */
@ApplicationScoped
public class CorrelationEcho implements ContainerResponseFilter {

    @Inject
    RequestTrace trace;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        trace.correlationId().ifPresent(id -> response.getHeaders().putSingle(RequestTrace.CORRELATION_HEADER, id));
    }
}

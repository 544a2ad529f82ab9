package io.outboxrelay.problem.boundary;

import jakarta.annotation.Priority;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;

import java.lang.reflect.AnnotatedElement;

/**
 * Resources that name roles need a signed-in user: without credentials (or with wrong ones)
 * the answer is a 401 problem document with the Basic challenge, not the container's empty
 * page. Whether the user has the role is then up to {@code @RolesAllowed} (403).
 */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class Authentication implements ContainerRequestFilter {

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        if (requiresRole(resource.getResourceMethod()) || requiresRole(resource.getResourceClass())) {
            if (request.getSecurityContext().getUserPrincipal() == null) {
                Response challenge = new Problem(401, "Unauthorized",
                        "Sign in: send HTTP Basic credentials of a user with the operator or viewer role.").toResponse();
                request.abortWith(Response.fromResponse(challenge)
                        .header("WWW-Authenticate", "Basic realm=\"Outbox Relay\"").build());
            }
        }
    }

    private static boolean requiresRole(AnnotatedElement element) {
        return element != null && element.isAnnotationPresent(RolesAllowed.class);
    }
}

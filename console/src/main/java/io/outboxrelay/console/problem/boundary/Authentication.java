package io.outboxrelay.console.problem.boundary;

import jakarta.annotation.Priority;
import jakarta.annotation.security.RolesAllowed;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import java.lang.reflect.AnnotatedElement;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Resources that name roles need a signed-in user. The API signs in with HTTP Basic against the
 * server's user registry (the console, in the same application, uses form login, so the
 * container does not read Basic credentials itself). Without credentials, or with wrong ones,
 * the answer is a 401 problem document with the Basic challenge, not the container's login
 * page. Whether the user has the role is then up to {@code @RolesAllowed} (403).
 */
@Priority(Priorities.AUTHENTICATION)
public class Authentication implements ContainerRequestFilter {

    private static final String BASIC = "Basic ";

    @Context
    ResourceInfo resource;

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        if (!requiresRole(resource.getResourceMethod()) && !requiresRole(resource.getResourceClass())) {
            return;
        }
        if (servletRequest.getUserPrincipal() == null && !signIn(request.getHeaderString(HttpHeaders.AUTHORIZATION))) {
            Response challenge = new Problem(401, "Unauthorized",
                    "Sign in: send HTTP Basic credentials of a user with the operator or viewer role.").toResponse();
            request.abortWith(Response.fromResponse(challenge)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"Outbox Relay\"").build());
        }
    }

    private boolean signIn(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            return false;
        }
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        int colon = credentials.indexOf(':');
        if (colon < 1) {
            return false;
        }
        try {
            servletRequest.login(credentials.substring(0, colon), credentials.substring(colon + 1));
            return servletRequest.getUserPrincipal() != null;
        } catch (ServletException wrongCredentials) {
            return false;
        }
    }

    private static boolean requiresRole(AnnotatedElement element) {
        return element != null && element.isAnnotationPresent(RolesAllowed.class);
    }
}

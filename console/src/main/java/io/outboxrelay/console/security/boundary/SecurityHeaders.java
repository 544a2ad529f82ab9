package io.outboxrelay.console.security.boundary;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * Headers on every answer under {@code /outbox/}: nothing of ours in a frame (clickjacking), no content-type
 * sniffing, no event ids in the {@code Referer} sent to other sites, and over HTTPS a browser told to stay
 * on HTTPS. API answers are data, so their policy allows nothing to run or load; the console's pages get
 * their script policy, with a fresh nonce per page, from PrimeFaces (see the {@code primefaces.CSP_POLICY}
 * context parameter of the console's web fragment).
 */
public class SecurityHeaders extends HttpFilter {

    private static final long serialVersionUID = 1L;
    static final String API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        if (request.isSecure()) {
            response.setHeader("Strict-Transport-Security", "max-age=31536000");
        }
        if (!request.getRequestURI().startsWith(request.getContextPath() + "/outbox/console/")) {
            response.setHeader("Content-Security-Policy", API_POLICY);
        }
        chain.doFilter(request, response);
    }
}

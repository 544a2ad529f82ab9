package io.outboxrelay.problem.boundary;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Refuses API request bodies larger than {@code outbox.api.max-body-bytes} (default 1 MiB) with a
 * 413 problem document before anything reads them. A request without a declared length
 * (chunked) is not measured here; the JSON readers bound what they accept.
 */
@WebFilter("/api/*")
public class BodyLimit extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    @ConfigProperty(name = "outbox.api.max-body-bytes", defaultValue = "1048576")
    transient long maxBytes;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setStatus(413);
            response.setContentType(Problem.MEDIA_TYPE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            response.setHeader("Connection", "close"); // the unread body is not worth receiving
            response.getWriter().write(new Problem(413, "Content Too Large",
                    "The request body is " + request.getContentLengthLong() + " bytes; at most " + maxBytes + " are accepted.")
                    .toJson());
            return;
        }
        chain.doFilter(request, response);
    }
}

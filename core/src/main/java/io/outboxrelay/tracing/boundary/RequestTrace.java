package io.outboxrelay.tracing.boundary;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The trace context of the current HTTP request: its {@code X-Correlation-Id} and W3C {@code traceparent},
 * read from the request when first asked for (a missing or malformed one gets a fresh one: a new trace
 * starts here). No filter is needed, so the application's own endpoints stay as they are. Outside an HTTP
 * request there is none.
 */
@RequestScoped
public class RequestTrace {

    public static final String CORRELATION_HEADER = "X-Correlation-Id";
    public static final String TRACEPARENT_HEADER = "traceparent";

    /** W3C trace context: version-traceid-parentid-flags, lower-case hex. */
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern CORRELATION_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    @Inject
    Instance<HttpServletRequest> request;

    private boolean requestRead;
    private String correlationId;
    private String traceparent;

    public Optional<String> correlationId() {
        readRequest();
        return Optional.ofNullable(correlationId);
    }

    public Optional<String> traceparent() {
        readRequest();
        return Optional.ofNullable(traceparent);
    }

    private void readRequest() {
        if (requestRead) {
            return;
        }
        requestRead = true;
        HttpServletRequest current = currentRequest();
        if (current == null) {
            return;
        }
        if (correlationId == null) {
            correlationId(current.getHeader(CORRELATION_HEADER));
            if (correlationId == null) {
                correlationId = UUID.randomUUID().toString();
            }
        }
        if (traceparent == null) {
            traceparent(current.getHeader(TRACEPARENT_HEADER));
            if (traceparent == null) {
                traceparent = newTraceparent(ThreadLocalRandom.current());
            }
        }
    }

    /** The HTTP request being served, or null: a timer, a consumer, a unit test. */
    private HttpServletRequest currentRequest() {
        if (request == null || !request.isResolvable()) {
            return null;
        }
        try {
            HttpServletRequest current = request.get();
            current.getMethod(); // touches the proxy: fails here when no HTTP request is being served
            return current;
        } catch (RuntimeException noHttpRequest) {
            return null;
        }
    }

    /** Keeps the correlation id if it is well-formed; a malformed one is ignored, not echoed. */
    public void correlationId(String candidate) {
        this.correlationId = isCorrelationId(candidate) ? candidate : null;
    }

    /** Keeps the traceparent if it is a well-formed, non-zero W3C trace context. */
    public void traceparent(String candidate) {
        this.traceparent = isTraceparent(candidate) ? candidate : null;
    }

    public static boolean isCorrelationId(String candidate) {
        return candidate != null && CORRELATION_ID.matcher(candidate).matches();
    }

    /** A new W3C trace context (random trace id and parent id, sampled), for a request that brought none. */
    public static String newTraceparent(java.util.random.RandomGenerator random) {
        String traceId;
        do {
            traceId = hex(random.nextLong()) + hex(random.nextLong());
        } while (traceId.chars().allMatch(c -> c == '0'));
        String parentId;
        do {
            parentId = hex(random.nextLong());
        } while (parentId.chars().allMatch(c -> c == '0'));
        return "00-" + traceId + "-" + parentId + "-01";
    }

    private static String hex(long value) {
        return String.format("%016x", value);
    }

    public static boolean isTraceparent(String candidate) {
        return candidate != null
                && TRACEPARENT.matcher(candidate).matches()
                && !candidate.startsWith("ff")
                && !candidate.substring(3, 35).chars().allMatch(c -> c == '0')
                && !candidate.substring(36, 52).chars().allMatch(c -> c == '0');
    }
}

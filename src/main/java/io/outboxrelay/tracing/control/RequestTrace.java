package io.outboxrelay.tracing.control;

import jakarta.enterprise.context.RequestScoped;

import java.util.Optional;
import java.util.regex.Pattern;

/** The trace context of the current request, filled in by the REST layer. */
@RequestScoped
public class RequestTrace {

    /** W3C trace context: version-traceid-parentid-flags, lower-case hex. */
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern CORRELATION_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    private String correlationId;
    private String traceparent;

    public Optional<String> correlationId() {
        return Optional.ofNullable(correlationId);
    }

    public Optional<String> traceparent() {
        return Optional.ofNullable(traceparent);
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

package io.outboxrelay.tracing.boundary;

import io.outboxrelay.tracing.control.ServletRequests;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * The trace context of the current HTTP request: its {@code X-Correlation-Id} and W3C {@code traceparent},
 * read from the request when first asked for (a missing or malformed one gets a fresh one: a new trace
 * starts here). No filter is needed, so the application's own endpoints stay as they are. Outside an HTTP
 * request there is none. A fresh correlation id is a random (version 4) UUID from a fast generator, not a secure
 * one: it names a request in logs and events and guards nothing.
 */
@RequestScoped
public class RequestTrace {

    public static final String CORRELATION_HEADER = "X-Correlation-Id";
    public static final String TRACEPARENT_HEADER = "traceparent";

    /** W3C trace context: version-traceid-parentid-flags, lower-case hex. */
    private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final Pattern CORRELATION_ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    @Inject
    ServletRequests requests;

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
                correlationId = randomId(ThreadLocalRandom.current()).toString();
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
        return requests == null ? null : requests.current();
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
    public static String newTraceparent(RandomGenerator random) {
        long traceHigh;
        long traceLow;
        do {
            traceHigh = random.nextLong();
            traceLow = random.nextLong();
        } while (traceHigh == 0 && traceLow == 0);
        long parentId;
        do {
            parentId = random.nextLong();
        } while (parentId == 0);
        StringBuilder traceparent = new StringBuilder(55).append("00-");
        hex(traceparent, traceHigh);
        hex(traceparent, traceLow);
        hex(traceparent.append('-'), parentId);
        return traceparent.append("-01").toString();
    }

    /** A random UUID of version 4 and the IETF variant, as {@link UUID#randomUUID()} makes them. */
    static UUID randomId(RandomGenerator random) {
        long most = random.nextLong() & ~0xF000L | 0x4000L;
        long least = random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(most, least);
    }

    /** Sixteen lower-case hex digits, leading zeros kept. */
    private static void hex(StringBuilder to, long value) {
        String digits = Long.toHexString(value);
        to.append("0".repeat(16 - digits.length())).append(digits);
    }

    public static boolean isTraceparent(String candidate) {
        return candidate != null
                && TRACEPARENT.matcher(candidate).matches()
                && !candidate.startsWith("ff")
                && !candidate.substring(3, 35).chars().allMatch(c -> c == '0')
                && !candidate.substring(36, 52).chars().allMatch(c -> c == '0');
    }
}

package io.outboxrelay.tracing.boundary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestTraceTest {

    private final RequestTrace trace = new RequestTrace();

    @Test
    void aWellFormedTraceparentIsKept() {
        trace.traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

        assertThat(trace.traceparent()).contains("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void malformedOrAllZeroTraceparentsAreDropped() {
        for (String bad : new String[] {
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", // upper case
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero parent id
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // forbidden version
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",    // no flags
                "'; DROP TABLE outbox_event; --"}) {
            trace.traceparent(bad);
            assertThat(trace.traceparent()).as(bad).isEmpty();
        }
    }

    @Test
    void aCorrelationIdIsKeptOnlyWhenItIsShortAndPlain() {
        trace.correlationId("checkout-42:retry.1");
        assertThat(trace.correlationId()).contains("checkout-42:retry.1");

        trace.correlationId("x".repeat(101));
        assertThat(trace.correlationId()).isEmpty();

        trace.correlationId("<script>");
        assertThat(trace.correlationId()).isEmpty();
    }

    @Test
    void aNewTraceparentIsWellFormedAndDiffersEachTime() {
        java.util.Random random = new java.util.Random(42);

        String first = RequestTrace.newTraceparent(random);
        String second = RequestTrace.newTraceparent(random);

        assertThat(RequestTrace.isTraceparent(first)).as(first).isTrue();
        assertThat(first).startsWith("00-").endsWith("-01").hasSize(55).isNotEqualTo(second);
    }

    @Test
    void aNewTraceparentKeepsLeadingZerosAndNeverHasAZeroId() {
        java.util.Iterator<Long> values = java.util.List.of(0L, 0L, 1L, 0xabcL, 0L, -1L).iterator();

        String traceparent = RequestTrace.newTraceparent(() -> values.next()); // zero trace id, zero parent id: drawn again

        assertThat(traceparent).isEqualTo("00-00000000000000010000000000000abc-ffffffffffffffff-01");
        assertThat(RequestTrace.isTraceparent(traceparent)).isTrue();
    }

    @Test
    void aFreshCorrelationIdIsARandomVersionFourUuid() {
        java.util.Random random = new java.util.Random(7);

        java.util.UUID first = RequestTrace.randomId(random);
        java.util.UUID second = RequestTrace.randomId(random);

        assertThat(first.version()).isEqualTo(4);
        assertThat(first.variant()).isEqualTo(2);
        assertThat(java.util.UUID.fromString(first.toString())).isEqualTo(first);
        assertThat(RequestTrace.isCorrelationId(first.toString())).isTrue();
        assertThat(first).isNotEqualTo(second);
    }
}

package io.outboxrelay.example.profile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampleProductionCheckTest {

    @Test
    void demoTrafficIsRefused() {
        assertThat(SampleProductionCheck.found(true, true)).singleElement().asString().contains("OUTBOX_DEMO_ENABLED");
    }

    @Test
    void ordersWithoutTheirEventsAreRefused() {
        assertThat(SampleProductionCheck.found(false, false))
                .singleElement().asString().contains("OUTBOX_SAMPLE_ORDERS_APPEND_EVENTS");
    }

    @Test
    void theSamplesDefaultsPass() {
        assertThat(SampleProductionCheck.found(false, true)).isEmpty();
    }
}

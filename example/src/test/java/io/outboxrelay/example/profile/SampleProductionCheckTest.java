package io.outboxrelay.example.profile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampleProductionCheckTest {

    @Test
    void demoTrafficIsRefused() {
        assertThat(SampleProductionCheck.found(true, true)).hasSize(2).anySatisfy(found -> assertThat(found).contains("OUTBOX_DEMO_ENABLED"));
    }

    @Test
    void ordersWithoutTheirEventsAreRefused() {
        assertThat(SampleProductionCheck.found(false, false)).hasSize(2)
                .anySatisfy(found -> assertThat(found).contains("OUTBOX_SAMPLE_ORDERS_APPEND_EVENTS"));
    }

    @Test
    void theSampleNeverStartsInProductionItsOrdersApiHasNoAuthentication() {
        assertThat(SampleProductionCheck.found(false, true)).singleElement().asString()
                .contains("/api/orders", "without authentication");
    }
}

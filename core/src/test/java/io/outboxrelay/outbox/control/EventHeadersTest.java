package io.outboxrelay.outbox.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventHeadersTest {

    @Test
    void headersTheRelayWritesItselfAreReservedWhateverTheirCase() {
        for (String name : new String[] {"ce_id", "CE_TYPE", "id", "aggregate_type", "event_version", "content-type",
                "dlt_attempts"}) {
            assertThat(EventHeaders.isReserved(name)).as(name).isTrue();
        }
        assertThat(EventHeaders.isReserved("correlation-id")).isFalse();
        assertThat(EventHeaders.isReserved("tenant")).isFalse();
    }
}

package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.outbox.entity.EventStatus;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FilterParametersTest {

    @Test
    void statusesMayRepeatOrBeCommaSeparatedInAnyCase() {
        EventFilter filter = FilterParameters.filter(null, null, null, null, List.of("dlt", "DEAD,pending"), null, null);

        assertThat(filter.statuses()).containsExactlyInAnyOrder(EventStatus.DLT, EventStatus.DEAD, EventStatus.PENDING);
    }

    @Test
    void blankParametersAreAbsentOnes() {
        EventFilter filter = FilterParameters.filter(" ", "", null, null, List.of(""), "", null);

        assertThat(filter).isEqualTo(new EventFilter(null, null, null, null, java.util.Set.of(), null, null));
    }

    @Test
    void malformedParametersAreRefusedWithTheirName() {
        assertThatThrownBy(() -> FilterParameters.uuid("eventId", "1-1-1-1-1"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("'eventId'");
        assertThatThrownBy(() -> FilterParameters.filter(null, null, null, null, List.of("LOST"), null, null))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("'status'");
        assertThatThrownBy(() -> FilterParameters.filter(null, null, null, null, null,
                "2026-12-01T00:00:00Z", "2026-11-01T00:00:00Z"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("'from'");
        assertThatThrownBy(() -> FilterParameters.size(201)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> FilterParameters.cursor("-5")).isInstanceOf(InvalidInputException.class);
        assertThat(FilterParameters.size(null)).isEqualTo(50);
    }
}

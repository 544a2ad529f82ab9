package io.outboxrelay.console.events.control;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.outbox.entity.EventStatus;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class EventCriteriaTest {

    private static final String QUEUED = "outbox_event.id = ANY (ARRAY(SELECT u.id FROM outbox_unsent u WHERE u.status IN ";

    @Test
    void anEmptyFilterMatchesEverything() {
        EventCriteria criteria = EventCriteria.of(new EventFilter(null, null, null, null, Set.of(), null, null));

        assertThat(criteria.where()).isEqualTo("TRUE");
        assertThat(criteria.parameters()).isEmpty();
    }

    @Test
    void valuesBecomeParametersNeverSqlText() {
        String hostile = "x'; DROP TABLE outbox_event; --";
        UUID eventId = UUID.randomUUID();
        OffsetDateTime from = OffsetDateTime.parse("2026-11-01T00:00:00Z");

        EventCriteria criteria = EventCriteria.of(new EventFilter(eventId, hostile, "order-1", "OrderPaid",
                EnumSet.of(EventStatus.DEAD, EventStatus.DLT), from, null));

        assertThat(criteria.where()).doesNotContain(hostile)
                .isEqualTo("event_id = ? AND aggregate_type = ? AND aggregate_id = ? AND event_type = ?"
                        + " AND outbox_event.id = ANY (ARRAY(SELECT u.id FROM outbox_unsent u WHERE u.status IN ('DLT', 'DEAD')))"
                        + " AND status IN ('DLT', 'DEAD') AND created_at >= ?");
        assertThat(criteria.parameters()).containsExactly(eventId, hostile, "order-1", "OrderPaid", from);
    }

    @Test
    void moreConditionsAppendTheirParametersInOrder() {
        EventCriteria criteria = EventCriteria.of(new EventFilter(null, "Order", null, null, Set.of(), null, null))
                .and("id < ?", 42L);

        assertThat(criteria.where()).isEqualTo("aggregate_type = ? AND id < ?");
        assertThat(criteria.parameters()).containsExactly("Order", 42L);
    }

    @Test
    void pendingAndInFlightAreToldApartByALiveLease() {
        String pending = EventCriteria.of(new EventFilter(null, null, null, null,
                EnumSet.of(EventStatus.PENDING), null, null)).where();
        String inFlight = EventCriteria.of(new EventFilter(null, null, null, null,
                EnumSet.of(EventStatus.IN_FLIGHT, EventStatus.DEAD), null, null)).where();
        String both = EventCriteria.of(new EventFilter(null, null, null, null,
                EnumSet.of(EventStatus.PENDING, EventStatus.IN_FLIGHT), null, null)).where();

        assertThat(pending).isEqualTo(QUEUED + "('PENDING'))) AND (status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM outbox_unsent l"
                + " WHERE l.id = outbox_event.id AND l.lease_until > now()))");
        assertThat(inFlight).isEqualTo(QUEUED + "('PENDING', 'DEAD'))) AND (status IN ('DEAD') OR status = 'IN_FLIGHT'"
                + " OR status = 'PENDING' AND EXISTS (SELECT 1 FROM outbox_unsent l WHERE l.id = outbox_event.id"
                + " AND l.lease_until > now()))");
        assertThat(both).as("both: the lease does not matter")
                .isEqualTo(QUEUED + "('PENDING'))) AND status IN ('PENDING', 'IN_FLIGHT')");
    }

    @Test
    void sentEventsAreNotLookedUpInTheQueueOfUnsentOnes() {
        String sentOrDead = EventCriteria.of(new EventFilter(null, null, null, null,
                EnumSet.of(EventStatus.SENT, EventStatus.DEAD), null, null)).where();

        assertThat(sentOrDead).isEqualTo("status IN ('SENT', 'DEAD')");
    }
}

package io.outboxrelay.console.pages.control;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.outbox.entity.EventStatus;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsoleQueryTest {

    @Test
    void anEventIdAloneFindsThatEvent() {
        UUID id = UUID.randomUUID();

        assertThat(ConsoleQuery.parse("  " + id + " ").eventId()).isEqualTo(id);
    }

    @Test
    void wordsWithKeysFilter() {
        EventFilter filter = ConsoleQuery.parse("status:dlt,DEAD type:OrderCreated aggregate:Order/42 topic:order.events "
                + "error:org.apache.kafka.common.errors.RecordTooLargeException from:2026-11-01 to:2026-11-30T12:00Z");

        assertThat(filter.statuses()).isEqualTo(Set.of(EventStatus.DLT, EventStatus.DEAD));
        assertThat(filter.eventType()).isEqualTo("OrderCreated");
        assertThat(filter.aggregateType()).isEqualTo("Order");
        assertThat(filter.aggregateId()).isEqualTo("42");
        assertThat(filter.topic()).isEqualTo("order.events");
        assertThat(filter.errorClass()).isEqualTo("org.apache.kafka.common.errors.RecordTooLargeException");
        assertThat(filter.from()).isEqualTo(OffsetDateTime.parse("2026-11-01T00:00Z"));
        assertThat(filter.to()).isEqualTo(OffsetDateTime.parse("2026-11-30T12:00Z"));
    }

    @Test
    void aBareWordIsAnAggregateIdAndAnEmptyBoxMatchesEverything() {
        assertThat(ConsoleQuery.parse("order-7").aggregateId()).isEqualTo("order-7");
        assertThat(ConsoleQuery.parse("   ")).isEqualTo(new EventFilter(null, null, null, null, Set.of(), null, null));
    }

    @Test
    void whatCannotBeReadIsExplainedNotGuessed() {
        assertThatThrownBy(() -> ConsoleQuery.parse("status:LOST")).hasMessageContaining("'LOST' is not a status");
        assertThatThrownBy(() -> ConsoleQuery.parse("colour:red")).hasMessageContaining("'colour' is not something to search by");
        assertThatThrownBy(() -> ConsoleQuery.parse("id:12345")).hasMessageContaining("not an event id");
        assertThatThrownBy(() -> ConsoleQuery.parse("from:yesterday")).hasMessageContaining("give a date");
        assertThatThrownBy(() -> ConsoleQuery.parse("from:2026-11-30 to:2026-11-01")).hasMessageContaining("after");
        assertThatThrownBy(() -> ConsoleQuery.parse("from:+275760-09-13T00:00:00Z")).hasMessageContaining("between the years 1 and 9999");
        assertThatThrownBy(() -> ConsoleQuery.parse("to:-4713-11-24T00:00:00Z")).hasMessageContaining("between the years 1 and 9999");
        assertThatThrownBy(() -> ConsoleQuery.parse("type:")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> ConsoleQuery.parse("x".repeat(1001))).hasMessageContaining("longer than 1000");
    }
}

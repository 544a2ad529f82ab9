package io.outboxrelay.console.events.control;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.outbox.entity.EventStatus;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A filter as SQL: a WHERE clause with placeholders and its parameters, in order. Values never
 * become SQL text. Each condition matches an index where one exists (event_id, the aggregate
 * index; events not SENT through the narrow queue of them, {@code outbox_unsent}).
 */
public record EventCriteria(String where, List<Object> parameters) {

    /**
     * The events as an operator sees them, under the outbox table's name so that the criteria read alike on both:
     * the view that lays a published event's record over its outbox row (SENT, where it landed; V014).
     */
    public static final String EVENTS = "outbox_event_state AS outbox_event";

    /** {@code last_error} starts with the failure's class name, then ': ' and its message. */
    public static final String ERROR_CLASS = "split_part(last_error, ':', 1)";

    /** A relay holds a lease on the event (it leases in the event's queue row, leaving the status PENDING). */
    private static final String LEASE_LIVE = "EXISTS (SELECT 1 FROM outbox_unsent l"
            + " WHERE l.id = outbox_event.id AND l.lease_until > now())";

    /** A PENDING event that a relay holds; a server of an earlier release wrote IN_FLIGHT into the row itself. */
    private static final String LEASED = "status = 'PENDING' AND " + LEASE_LIVE;

    /** The status an operator sees: IN_FLIGHT while a relay holds the event, else the row's own. */
    public static final String STATUS = "CASE WHEN " + LEASED + " THEN 'IN_FLIGHT' ELSE status END";

    public static EventCriteria of(EventFilter filter) {
        List<String> conditions = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        if (filter.eventId() != null) {
            conditions.add("event_id = ?");
            parameters.add(filter.eventId());
        }
        if (filter.aggregateType() != null) {
            conditions.add("aggregate_type = ?");
            parameters.add(filter.aggregateType());
        }
        if (filter.aggregateId() != null) {
            conditions.add("aggregate_id = ?");
            parameters.add(filter.aggregateId());
        }
        if (filter.eventType() != null) {
            conditions.add("event_type = ?");
            parameters.add(filter.eventType());
        }
        if (!filter.statuses().isEmpty()) {
            conditions.add(statusCondition(filter.statuses()));
        }
        if (filter.from() != null) {
            conditions.add("created_at >= ?");
            parameters.add(filter.from());
        }
        if (filter.to() != null) {
            conditions.add("created_at < ?");
            parameters.add(filter.to());
        }
        if (filter.topic() != null) {
            conditions.add("topic = ?");
            parameters.add(filter.topic());
        }
        if (filter.errorClass() != null) {
            conditions.add(ERROR_CLASS + " = ?");
            parameters.add(filter.errorClass());
        }
        return new EventCriteria(conditions.isEmpty() ? "TRUE" : String.join(" AND ", conditions), List.copyOf(parameters));
    }

    /**
     * Literal enum names (never user text). PENDING and IN_FLIGHT differ only by a live lease, so asking
     * for one of them but not the other looks at leases. Without SENT, the rows are looked up by the ids
     * that the queue of unsent events holds in those states (its partial indexes), not found by reading
     * the whole history; the row's own status still decides.
     */
    private static String statusCondition(Set<EventStatus> statuses) {
        String condition = rowStatusCondition(statuses);
        if (statuses.contains(EventStatus.SENT)) {
            return condition;
        }
        String queued = statuses.stream().map(status -> status == EventStatus.IN_FLIGHT ? EventStatus.PENDING : status)
                .distinct().sorted().map(status -> "'" + status.name() + "'").collect(Collectors.joining(", "));
        return "outbox_event.id = ANY (ARRAY(SELECT u.id FROM outbox_unsent u WHERE u.status IN (" + queued + ")))"
                + " AND " + condition;
    }

    private static String rowStatusCondition(Set<EventStatus> statuses) {
        Set<EventStatus> plain = EnumSet.copyOf(statuses);
        String byLease = null;
        if (plain.contains(EventStatus.PENDING) != plain.contains(EventStatus.IN_FLIGHT)) {
            byLease = plain.contains(EventStatus.PENDING) ? "status = 'PENDING' AND NOT " + LEASE_LIVE
                    : "status = 'IN_FLIGHT' OR " + LEASED;
            plain.removeAll(EnumSet.of(EventStatus.PENDING, EventStatus.IN_FLIGHT));
        }
        String byStatus = plain.isEmpty() ? null : "status IN (" + plain.stream().sorted().map(EventStatus::name)
                .map(name -> "'" + name + "'").collect(Collectors.joining(", ")) + ")";
        if (byLease == null) {
            return byStatus;
        }
        return "(" + (byStatus == null ? "" : byStatus + " OR ") + byLease + ")";
    }

    /** The same criteria plus one more condition and its parameters. */
    public EventCriteria and(String condition, Object... more) {
        List<Object> all = new ArrayList<>(parameters);
        all.addAll(List.of(more));
        return new EventCriteria(where + " AND " + condition, List.copyOf(all));
    }
}

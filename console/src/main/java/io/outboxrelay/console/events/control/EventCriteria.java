package io.outboxrelay.console.events.control;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.outbox.entity.EventStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A filter as SQL: a WHERE clause with placeholders and its parameters, in order. Values never
 * become SQL text. Each condition matches an index where one exists (event_id, the aggregate
 * index, the failed-rows index).
 */
public record EventCriteria(String where, List<Object> parameters) {

    /** {@code last_error} starts with the failure's class name, then ': ' and its message. */
    public static final String ERROR_CLASS = "split_part(last_error, ':', 1)";

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
            // literal enum names (never user text), so the planner can match the partial indexes
            conditions.add("status IN (" + filter.statuses().stream().sorted().map(EventStatus::name)
                    .map(name -> "'" + name + "'").collect(Collectors.joining(", ")) + ")");
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

    /** The same criteria plus one more condition and its parameters. */
    public EventCriteria and(String condition, Object... more) {
        List<Object> all = new ArrayList<>(parameters);
        all.addAll(List.of(more));
        return new EventCriteria(where + " AND " + condition, List.copyOf(all));
    }
}

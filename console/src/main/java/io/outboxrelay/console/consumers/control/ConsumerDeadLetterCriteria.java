package io.outboxrelay.console.consumers.control;

import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;

import java.util.ArrayList;
import java.util.List;

/** A consumer dead-letter filter as SQL: a WHERE clause with placeholders and its parameters, in order. */
public record ConsumerDeadLetterCriteria(String where, List<Object> parameters) {

    /** The states a consumer dead letter can be in, in the order it passes through them. */
    public static final List<String> STATES = List.of("DEAD_LETTERED", "REPLAY_REQUESTED", "REPLAYING", "REPLAYED");

    public static ConsumerDeadLetterCriteria of(ConsumerDeadLetterFilter filter) {
        List<String> conditions = new ArrayList<>();
        List<Object> parameters = new ArrayList<>();
        add(conditions, parameters, "consumer_group = ?", filter.consumerGroup());
        add(conditions, parameters, "topic = ?", filter.topic());
        add(conditions, parameters, "error_class = ?", filter.errorClass());
        add(conditions, parameters, "event_id = ?", filter.eventId());
        add(conditions, parameters, "status = ?", filter.status());
        return new ConsumerDeadLetterCriteria(conditions.isEmpty() ? "TRUE" : String.join(" AND ", conditions),
                List.copyOf(parameters));
    }

    private static void add(List<String> conditions, List<Object> parameters, String condition, Object value) {
        if (value != null) {
            conditions.add(condition);
            parameters.add(value);
        }
    }

    /** The same criteria plus one more condition and its parameters. */
    public ConsumerDeadLetterCriteria and(String condition, Object... more) {
        List<Object> all = new ArrayList<>(parameters);
        all.addAll(List.of(more));
        return new ConsumerDeadLetterCriteria(where + " AND " + condition, List.copyOf(all));
    }
}

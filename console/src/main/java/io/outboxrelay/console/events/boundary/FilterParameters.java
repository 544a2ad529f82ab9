package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.problem.boundary.Parameters;
import io.outboxrelay.outbox.entity.EventStatus;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/** Turns request parameters into a filter, refusing malformed ones with a 400 that says which and why. */
final class FilterParameters {

    private static final int MAX_TEXT = 200;

    private FilterParameters() {
    }

    static EventFilter filter(String eventId, String aggregateType, String aggregateId, String eventType,
                              List<String> statuses, String from, String to) {
        OffsetDateTime fromTime = time("from", from);
        OffsetDateTime toTime = time("to", to);
        if (fromTime != null && toTime != null && fromTime.isAfter(toTime)) {
            throw new InvalidInputException("'from' must not be after 'to'");
        }
        return new EventFilter(uuid("eventId", eventId), text("aggregateType", aggregateType),
                text("aggregateId", aggregateId), text("eventType", eventType), statuses(statuses), fromTime, toTime);
    }

    static UUID uuid(String name, String value) {
        return Parameters.uuid(name, value);
    }

    /** The page size: 50 when absent, at most {@value Parameters#MAX_PAGE_SIZE}. */
    static int pageSize(String size) {
        return size(Parameters.wholeNumber("size", size));
    }

    static int size(Integer size) {
        return Parameters.pageSize(size);
    }

    static Long cursor(String cursor) {
        return Parameters.positive(cursor, "'cursor' must be the nextCursor of an earlier page");
    }

    static Set<EventStatus> statuses(List<String> values) {
        Set<EventStatus> statuses = EnumSet.noneOf(EventStatus.class);
        if (values == null) {
            return statuses;
        }
        for (String value : values) {
            for (String part : value.split(",")) {
                if (blank(part)) {
                    continue;
                }
                try {
                    statuses.add(EventStatus.valueOf(part.trim().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException unknown) {
                    throw new InvalidInputException("'status' must be one of " + EnumSet.allOf(EventStatus.class));
                }
            }
        }
        return statuses;
    }

    private static OffsetDateTime time(String name, String value) {
        if (blank(value)) {
            return null;
        }
        OffsetDateTime time;
        try {
            time = OffsetDateTime.parse(value.trim());
        } catch (DateTimeParseException notATime) {
            throw new InvalidInputException("'" + name + "' must be an ISO-8601 time with offset, e.g. 2026-11-30T10:15:00Z");
        }
        if (!Parameters.ordinaryTime(time)) {
            throw new InvalidInputException("'" + name + "' must lie between the years 1 and 9999");
        }
        return time;
    }

    private static String text(String name, String value) {
        return Parameters.text(name, value, MAX_TEXT);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}

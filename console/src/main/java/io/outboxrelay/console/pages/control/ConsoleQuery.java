package io.outboxrelay.console.pages.control;

import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.problem.boundary.Parameters;
import io.outboxrelay.outbox.entity.EventStatus;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * The console's one search box. An event id alone finds that event; otherwise words of the form
 * {@code key:value} filter ({@code status:DLT,DEAD type:OrderCreated aggregate:Order/42
 * topic:order.events error:org.apache.kafka.common.errors.RecordTooLargeException
 * from:2026-11-01 to:2026-11-30T12:00Z}), and a bare word is an aggregate id.
 */
public final class ConsoleQuery {

    public static final String SYNTAX = "an event id, or words like status:DLT,DEAD type:OrderCreated "
            + "aggregate:Order/42 topic:order.events error:SomeException from:2026-11-01 to:2026-11-30";

    private static final int MAX_TEXT = 200;

    private ConsoleQuery() {
    }

    /** @throws IllegalArgumentException with a sentence for the operator when a word cannot be read */
    public static EventFilter parse(String query) {
        UUID eventId = null;
        String aggregateType = null;
        String aggregateId = null;
        String eventType = null;
        String topic = null;
        String errorClass = null;
        Set<EventStatus> statuses = EnumSet.noneOf(EventStatus.class);
        OffsetDateTime from = null;
        OffsetDateTime to = null;
        String text = query == null ? "" : query.strip();
        if (text.length() > 1000) {
            throw new IllegalArgumentException("The search is longer than 1000 characters.");
        }
        for (String word : text.isEmpty() ? new String[0] : text.split("\\s+")) {
            int colon = word.indexOf(':');
            String key = colon > 0 ? word.substring(0, colon).toLowerCase(Locale.ROOT) : "";
            String value = colon > 0 ? word.substring(colon + 1) : word;
            switch (key) {
                case "" -> {
                    UUID id = uuidOrNull(value);
                    if (id != null) {
                        eventId = id;
                    } else {
                        aggregateId = text(word, value);
                    }
                }
                case "id", "eventid" -> eventId = uuid(value);
                case "status" -> statuses.addAll(statuses(value));
                case "type", "eventtype" -> eventType = text(word, value);
                case "aggregatetype" -> aggregateType = text(word, value);
                case "aggregateid" -> aggregateId = text(word, value);
                case "aggregate" -> {
                    int slash = value.indexOf('/');
                    if (slash > 0) {
                        aggregateType = text(word, value.substring(0, slash));
                        aggregateId = text(word, value.substring(slash + 1));
                    } else {
                        aggregateId = text(word, value);
                    }
                }
                case "topic" -> topic = text(word, value);
                case "error", "errorclass" -> errorClass = text(word, value);
                case "from" -> from = time(word, value);
                case "to" -> to = time(word, value);
                default -> throw new IllegalArgumentException("'" + key + "' is not something to search by. Try " + SYNTAX + ".");
            }
        }
        if (from != null && to != null && from.isAfter(to)) {
            throw new IllegalArgumentException("'from' is after 'to'.");
        }
        return new EventFilter(eventId, aggregateType, aggregateId, eventType, statuses, from, to, topic, errorClass);
    }

    private static UUID uuidOrNull(String value) {
        if (value.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    private static UUID uuid(String value) {
        UUID id = uuidOrNull(value);
        if (id == null) {
            throw new IllegalArgumentException("'" + shorten(value) + "' is not an event id (a UUID such as 0192f3c4-...).");
        }
        return id;
    }

    private static Set<EventStatus> statuses(String value) {
        Set<EventStatus> statuses = EnumSet.noneOf(EventStatus.class);
        for (String name : value.split(",")) {
            try {
                statuses.add(EventStatus.valueOf(name.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException unknown) {
                throw new IllegalArgumentException("'" + shorten(name) + "' is not a status; the statuses are "
                        + java.util.Arrays.toString(EventStatus.values()) + ".");
            }
        }
        return statuses;
    }

    private static OffsetDateTime time(String word, String value) {
        OffsetDateTime time;
        try {
            time = value.length() == 10
                    ? LocalDate.parse(value).atStartOfDay().atOffset(ZoneOffset.UTC)
                    : OffsetDateTime.parse(value);
        } catch (DateTimeParseException notATime) {
            throw new IllegalArgumentException("'" + shorten(word) + "': give a date (2026-11-30) or a time with its offset "
                    + "(2026-11-30T12:00:00Z).");
        }
        if (!Parameters.ordinaryTime(time)) {
            throw new IllegalArgumentException("'" + shorten(word) + "': give a time between the years 1 and 9999.");
        }
        return time;
    }

    private static String text(String word, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("'" + shorten(word) + "' needs a value after the colon.");
        }
        if (value.length() > MAX_TEXT) {
            throw new IllegalArgumentException("A value is longer than " + MAX_TEXT + " characters.");
        }
        if (Parameters.hasControlCharacters(value)) {
            throw new IllegalArgumentException("A value contains control characters.");
        }
        return value;
    }

    private static String shorten(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}

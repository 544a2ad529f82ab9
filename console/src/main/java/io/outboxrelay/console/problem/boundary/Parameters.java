package io.outboxrelay.console.problem.boundary;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.regex.Pattern;

/** Reading request parameters; a malformed one is refused with a 400 that names it. */
public final class Parameters {

    private static final Pattern CANONICAL_UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Parameters() {
    }

    /** A UUID in its canonical form, or null when blank. */
    public static UUID uuid(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!CANONICAL_UUID.matcher(value.trim()).matches()) {
            throw new InvalidInputException("'" + name + "' must be a UUID such as 0190f1c2-7d3a-7b4e-9c1d-2e3f4a5b6c7d");
        }
        return UUID.fromString(value.trim());
    }

    /** The most rows a page of the operator API holds. */
    public static final int MAX_PAGE_SIZE = 200;

    /** A page size: 50 when absent, between 1 and {@value #MAX_PAGE_SIZE}. */
    public static int pageSize(Integer size) {
        int value = size == null ? 50 : size;
        if (value < 1 || value > MAX_PAGE_SIZE) {
            throw new InvalidInputException("'size' must be between 1 and " + MAX_PAGE_SIZE);
        }
        return value;
    }

    /** A whole number, or null when blank. */
    public static Integer wholeNumber(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(value.trim());
        } catch (NumberFormatException notANumber) {
            throw new InvalidInputException("'" + name + "' must be a whole number");
        }
    }

    /**
     * Times every part of the system can hold: years 1 to 9999 (PostgreSQL's timestamptz ends in the year
     * 294276 and begins in 4713 BC, Java's much further out, ISO-8601 without a sign at 9999). A time out
     * there is no filter anybody means, and PostgreSQL would refuse it with an error instead of no rows.
     */
    public static boolean ordinaryTime(OffsetDateTime time) {
        int year = time.withOffsetSameInstant(ZoneOffset.UTC).getYear();
        return year >= 1 && year <= 9999;
    }

    /** A filter's text, or null when blank: at most {@code max} characters, no control characters. */
    public static String text(String name, String value, int max) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() > max) {
            throw new InvalidInputException("'" + name + "' is at most " + max + " characters");
        }
        if (hasControlCharacters(value)) {
            throw new InvalidInputException("'" + name + "' must not contain control characters");
        }
        return value;
    }

    /** A whole number above 0 (an id, a cursor), or null when blank; otherwise a 400 that says {@code expected}. */
    public static Long positive(String value, String expected) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            long number = Long.parseLong(value.trim());
            if (number < 1) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException notANumber) {
            throw new InvalidInputException(expected);
        }
    }

    /** Control characters have no place in a filter value (and PostgreSQL text cannot even hold a NUL). */
    public static boolean hasControlCharacters(String value) {
        return value.chars().anyMatch(Character::isISOControl);
    }
}

package io.outboxrelay.console.problem.boundary;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.Temporal;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

/**
 * Does a JSON value have the shape of a Java type? Records are objects, collections and arrays are arrays,
 * text types are strings, booleans are booleans, and numbers are numbers taken exactly: a whole-number
 * type takes only a whole number within its range (1.9 is refused, never rounded), a decimal type also its
 * decimal written as a string. No string may hold a NUL or half a surrogate pair (PostgreSQL cannot store
 * the one, and the other would be stored as '?'). JSON null is left to Bean Validation, properties the
 * type does not have to the strict JSON-B configuration, and types this does not know (JSON values, maps,
 * {@code Object}) take any value.
 */
final class JsonShape {

    /** Whole numbers with more digits than this are out of every whole-number type's range (checked without expanding 1e999999). */
    private static final int MAX_WHOLE_DIGITS = 20;
    private static final Map<Class<?>, BigInteger[]> WHOLE_RANGES = Map.of(
            Integer.class, range(Integer.MIN_VALUE, Integer.MAX_VALUE), int.class, range(Integer.MIN_VALUE, Integer.MAX_VALUE),
            Long.class, range(Long.MIN_VALUE, Long.MAX_VALUE), long.class, range(Long.MIN_VALUE, Long.MAX_VALUE),
            Short.class, range(Short.MIN_VALUE, Short.MAX_VALUE), short.class, range(Short.MIN_VALUE, Short.MAX_VALUE));

    private JsonShape() {
    }

    /** Throws an {@link InvalidInputException} naming the first field whose value does not fit {@code type}. */
    static void check(JsonValue value, Type type) {
        check(value, type, null);
    }

    private static void check(JsonValue value, Type type, String path) {
        if (value.getValueType() == JsonValue.ValueType.NULL) {
            return;
        }
        Class<?> raw = raw(type);
        if (raw == null) {
            return;
        }
        if (raw.isRecord()) {
            expect(value, JsonValue.ValueType.OBJECT, path, "an object");
            JsonObject object = value.asJsonObject();
            for (RecordComponent component : raw.getRecordComponents()) {
                if (object.containsKey(component.getName())) {
                    check(object.get(component.getName()), component.getGenericType(), join(path, component.getName()));
                }
            }
        } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
            expect(value, JsonValue.ValueType.ARRAY, path, "an array");
            Type element = element(type, raw);
            JsonArray array = value.asJsonArray();
            for (int i = 0; i < array.size(); i++) {
                check(array.get(i), element, (path == null ? "" : path) + "[" + i + "]");
            }
        } else if (raw == String.class || raw.isEnum() || raw == UUID.class || Temporal.class.isAssignableFrom(raw)) {
            expect(value, JsonValue.ValueType.STRING, path, "text");
            storable(((JsonString) value).getString(), path);
        } else if (raw == Boolean.class || raw == boolean.class) {
            if (value != JsonValue.TRUE && value != JsonValue.FALSE) {
                throw new InvalidInputException(name(path) + " must be true or false");
            }
        } else if (WHOLE_RANGES.containsKey(raw) || raw == BigInteger.class) {
            expect(value, JsonValue.ValueType.NUMBER, path, "a whole number");
            whole(((JsonNumber) value).bigDecimalValue(), WHOLE_RANGES.get(raw), path);
        } else if (raw == BigDecimal.class) {
            if (value.getValueType() == JsonValue.ValueType.STRING) {
                storable(((JsonString) value).getString(), path); // a decimal written as text, e.g. "2.50"
            } else {
                expect(value, JsonValue.ValueType.NUMBER, path, "a number");
            }
        } else if (Number.class.isAssignableFrom(raw) || raw == double.class || raw == float.class) {
            expect(value, JsonValue.ValueType.NUMBER, path, "a number");
        }
    }

    private static void whole(BigDecimal number, BigInteger[] range, String path) {
        BigDecimal stripped = number.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new InvalidInputException(name(path) + " must be a whole number");
        }
        if (stripped.precision() - stripped.scale() > MAX_WHOLE_DIGITS) {
            throw new InvalidInputException(name(path) + " is out of range");
        }
        BigInteger whole = stripped.toBigIntegerExact();
        if (range != null && (whole.compareTo(range[0]) < 0 || whole.compareTo(range[1]) > 0)) {
            throw new InvalidInputException(name(path) + " is out of range");
        }
    }

    private static void storable(String text, String path) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                throw new InvalidInputException(name(path) + " must not contain the NUL character");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidInputException(name(path) + " must not contain half a surrogate pair");
            }
        }
    }

    private static void expect(JsonValue value, JsonValue.ValueType type, String path, String what) {
        if (value.getValueType() != type) {
            throw new InvalidInputException(name(path) + " must be " + what);
        }
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> plain) {
            return plain == Object.class ? null : plain;
        }
        if (type instanceof ParameterizedType parameterized) {
            return raw(parameterized.getRawType());
        }
        if (type instanceof GenericArrayType array) {
            Class<?> component = raw(array.getGenericComponentType());
            return component == null ? Object[].class : component.arrayType();
        }
        return null; // a type variable or wildcard: nothing to hold it to
    }

    private static Type element(Type type, Class<?> raw) {
        if (raw.isArray()) {
            return type instanceof GenericArrayType array ? array.getGenericComponentType() : raw.getComponentType();
        }
        if (type instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments().length == 1) {
            Type argument = parameterized.getActualTypeArguments()[0];
            return argument instanceof java.lang.reflect.WildcardType wildcard ? wildcard.getUpperBounds()[0] : argument;
        }
        return Object.class;
    }

    private static String join(String path, String name) {
        return path == null ? name : path + "." + name;
    }

    private static String name(String path) {
        return path == null ? "the body" : "'" + path + "'";
    }

    private static BigInteger[] range(long min, long max) {
        return new BigInteger[] {BigInteger.valueOf(min), BigInteger.valueOf(max)};
    }
}

package io.outboxrelay.console.problem.boundary;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * A JSON body is taken as exactly what the request type declares, or refused with a 400 that names the
 * field, before JSON-B binds it. JSON-B (Yasson) alone binds {@code 1.9} to an {@code int} as 1, ignores
 * whatever follows the first value, and binds an array where an object is declared; and PostgreSQL
 * cannot store a NUL in text. The rules are {@link JsonShape}'s. Bodies are small (the body limit
 * filter caps them), so the body is read once here and handed on from memory.
 */
public class ExactJson implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!MediaType.APPLICATION_JSON_TYPE.isCompatible(context.getMediaType())) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        if (!new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
            JsonShape.check(single(body), context.getGenericType());
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }

    /** The body's one JSON value; anything after it, or malformed JSON, is refused. */
    static JsonValue single(byte[] body) {
        try (JsonParser parser = Json.createParser(new ByteArrayInputStream(body))) {
            parser.next();
            JsonValue value = parser.getValue();
            if (parser.hasNext()) {
                throw new InvalidInputException("the body must be one JSON value with nothing after it");
            }
            return value;
        } catch (JsonException | java.util.NoSuchElementException | IllegalStateException malformed) { // JsonParsingException among them
            throw new InvalidInputException("the body is not well-formed JSON, or has something after its value");
        }
    }
}

package io.outboxrelay.console.problem.boundary;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.ws.rs.ext.ContextResolver;

/**
 * JSON bodies are read strictly: a property the request type does not know is an error (400),
 * not silently dropped. A bulk replay whose filter field is misspelt must not replay every dead
 * letter because its filter came out empty.
 */
public class StrictJson implements ContextResolver<Jsonb> {

    private final Jsonb jsonb = JsonbBuilder.create(new JsonbConfig().setProperty("jsonb.fail-on-unknown-properties", true));

    @Override
    public Jsonb getContext(Class<?> type) {
        return jsonb;
    }
}

package io.outboxrelay.console.problem.boundary;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** An RFC 9457 problem document. */
public record Problem(int status, String title, String detail, List<String> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final int MAX_DETAIL = 500;

    public Problem(int status, String title, String detail) {
        this(status, title, detail, List.of());
    }

    public Response toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(toJson()).build();
    }

    /** The same answer from a servlet or a filter, where no JAX-RS mapper runs. */
    public void writeTo(HttpServletResponse response) throws IOException {
        response.setStatus(status);
        response.setContentType(MEDIA_TYPE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(toJson());
    }

    public String toJson() {
        JsonObjectBuilder json = Json.createObjectBuilder()
                .add("type", "about:blank")
                .add("title", title)
                .add("status", status);
        if (detail != null) {
            json.add("detail", truncated(detail));
        }
        if (!errors.isEmpty()) {
            JsonArrayBuilder list = Json.createArrayBuilder();
            errors.forEach(error -> list.add(truncated(error)));
            json.add("errors", list);
        }
        return json.build().toString();
    }

    private static String truncated(String text) {
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL) + "...";
    }
}

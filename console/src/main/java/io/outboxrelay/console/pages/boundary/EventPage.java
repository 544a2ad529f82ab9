package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.EventDetail;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.stream.JsonGenerator;

import java.io.Serializable;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** One event: payload, headers, attempts and last error, where it landed in Kafka, its replays. */
@Named("outboxEvent")
@ViewScoped
public class EventPage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final JsonWriterFactory PRETTY = Json.createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true));
    private static final Set<String> REPLAYABLE = Set.of("DLT", "DEAD");

    @Inject
    Events queries;

    @Inject
    ConsoleReplays console;

    private String id;
    private transient EventDetail detail;

    /** Runs before the page renders (f:viewAction) and after a replay. */
    public void load() {
        detail = null;
        UUID eventId;
        try {
            eventId = UUID.fromString(id == null ? "" : id.strip());
        } catch (IllegalArgumentException notAnId) {
            Messages.error("'" + abbreviate(id) + "' is not an event id.");
            return;
        }
        try {
            detail = queries.find(eventId).orElse(null);
            if (detail == null) {
                Messages.error("No event has the id " + eventId + ".");
            }
        } catch (SQLException e) {
            Messages.unavailable("The database", e);
        }
    }

    /** Replays, then shows the event again by a fresh GET, so reloading the page does not post the replay again. */
    public String replay() {
        if (!console.allowed()) {
            return null;
        }
        console.replayOne(UUID.fromString(id), "Replayed: the event is PENDING again and the relay will publish it.");
        return "/outbox/console/event?faces-redirect=true&id=" + id;
    }

    public boolean isReplayable() {
        return detail != null && REPLAYABLE.contains(detail.status());
    }

    public String pretty(JsonValue json) {
        if (json == null) {
            return "";
        }
        StringWriter text = new StringWriter();
        try (JsonWriter writer = PRETTY.createWriter(text)) {
            writer.write(json);
        }
        return text.toString().strip();
    }

    /** Header names and values as stored (a header value that is not text shows as JSON). */
    public java.util.List<Map.Entry<String, String>> getHeaders() {
        if (detail == null || detail.headers() == null || detail.headers().getValueType() != JsonValue.ValueType.OBJECT) {
            return java.util.List.of();
        }
        return detail.headers().asJsonObject().entrySet().stream()
                .map(header -> Map.entry(header.getKey(), header.getValue() instanceof jakarta.json.JsonString text
                        ? text.getString() : header.getValue().toString()))
                .toList();
    }

    public EventDetail getDetail() {
        return detail;
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() > 60 ? text.substring(0, 60) + "…" : text;
    }
}

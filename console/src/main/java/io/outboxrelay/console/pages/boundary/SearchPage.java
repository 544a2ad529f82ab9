package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventSummary;
import io.outboxrelay.console.pages.control.ConsoleQuery;
import io.outboxrelay.console.pages.control.LazyEvents;
import jakarta.annotation.PostConstruct;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.sql.SQLException;
import java.util.Set;

/** The search page: one box for an event id or filter words, and the matching events, newest first. */
@Named("outboxSearch")
@ViewScoped
public class SearchPage implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final EventFilter EVERYTHING = new EventFilter(null, null, null, null, Set.of(), null, null);

    @Inject
    Events queries;

    private String query;
    private EventFilter filter = EVERYTHING;
    private LazyEvents events;

    @PostConstruct
    void init() {
        events = new LazyEvents(queries, () -> filter);
    }

    /** Opens the event when the box holds an event id that exists; otherwise filters the table. */
    public String find() {
        try {
            filter = ConsoleQuery.parse(query);
        } catch (IllegalArgumentException unreadable) {
            Messages.error(unreadable.getMessage());
            return null;
        }
        if (filter.eventId() != null) {
            try {
                if (queries.find(filter.eventId()).isPresent()) {
                    return "event?faces-redirect=true&id=" + filter.eventId();
                }
            } catch (SQLException e) {
                Messages.unavailable("The database", e);
                return null;
            }
            Messages.error("No event has the id " + filter.eventId() + ".");
        }
        return null;
    }

    public String getQuery() {
        return query;
    }

    public void setQuery(String query) {
        this.query = query;
    }

    public String getSyntax() {
        return ConsoleQuery.SYNTAX;
    }

    public LazyEvents getEvents() {
        return events;
    }

    public String statusClass(EventSummary event) {
        return Badges.of(event.status());
    }
}

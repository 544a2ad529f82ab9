package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.AuditEntry;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.sql.SQLException;
import java.util.List;

/** The replay audit log, newest first: who replayed what, when, with which filter, how many. */
@Named("outboxAudit")
@RequestScoped
public class AuditPage {

    static final int SHOWN = 500;

    @Inject
    Events queries;

    private List<AuditEntry> entries;

    public List<AuditEntry> getEntries() {
        if (entries == null) {
            try {
                entries = queries.audit(null, SHOWN);
            } catch (SQLException e) {
                entries = List.of();
                Messages.unavailable("The database", e);
            }
        }
        return entries;
    }

    public int getShown() {
        return SHOWN;
    }
}

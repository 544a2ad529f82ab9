package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.AuditEntry;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.sql.SQLException;
import java.util.List;

/** The replay audit log, newest first. */
@Path("audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
public class AuditResource {

    @Inject
    Events queries;

    @GET
    public List<AuditEntry> entries(@QueryParam("cursor") String cursor, @QueryParam("size") String size) throws SQLException {
        return queries.audit(FilterParameters.cursor(cursor), FilterParameters.pageSize(size));
    }
}

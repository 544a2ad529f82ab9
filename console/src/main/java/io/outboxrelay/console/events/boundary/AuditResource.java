package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.entity.AuditEntry;
import io.outboxrelay.console.security.boundary.OperatorApiOnly;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.sql.SQLException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The replay audit log, newest first. */
@Path("audit")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
@Tag(name = "audit")
public class AuditResource {

    @Context
    UriInfo uri;

    @Inject
    Events queries;

    @Operation(operationId = "listReplayAudit", summary = "The replay audit log, newest first")
    @APIResponse(responseCode = "200", description = "Audit entries")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    public List<AuditEntry> entries(@QueryParam("cursor") String cursor, @QueryParam("size") String size) throws SQLException {
        OperatorApiOnly.require(uri);
        return queries.audit(FilterParameters.cursor(cursor), FilterParameters.pageSize(size));
    }
}

package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.security.boundary.OperatorApiOnly;
import io.outboxrelay.lag.boundary.LagHistory;
import io.outboxrelay.lag.boundary.LagSnapshot;
import io.outboxrelay.lag.boundary.PublishRate;
import io.outboxrelay.lag.entity.LagSample;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * How far behind things are: rows per status, the age of the oldest event not yet published,
 * this server's publish rate, each consumer group's lag per partition, and the CDC mode's replication slot
 * (whether it exists and is streamed from, and how much WAL it keeps). The figures that
 * cost a query are the latest snapshot ({@code measuredAt}, refreshed every
 * {@code outbox.lag.refresh-ms}).
 */
@Path("lag")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
@Tag(name = "lag")
public class LagResource {

    @Context
    UriInfo uri;

    @Inject
    LagSnapshot snapshot;

    @Inject
    PublishRate publishRate;

    @Inject
    LagHistory lagHistory;

    @Operation(operationId = "getLag", summary = "Rows per status, oldest pending age, publish rate, consumer lag")
    @APIResponse(responseCode = "200", description = "The latest lag snapshot")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @GET
    public Map<String, Object> lag() {
        OperatorApiOnly.require(uri);
        LagSnapshot.Figures figures = snapshot.figures();
        Map<String, Object> lag = new LinkedHashMap<>();
        lag.put("measuredAt", figures.takenAt() == null ? null : figures.takenAt().toString());
        lag.put("rowsByStatus", figures.rowsByStatus());
        lag.put("oldestPendingAgeSeconds", figures.oldestPendingAgeSeconds());
        lag.put("publishRatePerSecond", publishRate.perSecond());
        lag.put("consumerGroups", figures.consumers());
        lag.put("consumerDeadLetters", figures.consumerDeadLetters());
        lag.put("replicationSlot", figures.slot());
        if (figures.databaseError() != null) {
            lag.put("databaseError", figures.databaseError());
        }
        if (figures.kafkaError() != null) {
            lag.put("consumerGroupsError", figures.kafkaError());
        }
        return lag;
    }

    @Operation(operationId = "getLagHistory", summary = "This server's lag snapshots of the last hour, oldest first",
            description = "One sample per snapshot (outbox.lag.refresh-ms): oldest pending age, this server's publish rate,"
                    + " each consumer group's total lag per topic. Kept in memory for outbox.lag.history-minutes.")
    @APIResponse(responseCode = "200", description = "The samples")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @GET
    @Path("history")
    public List<LagSample> history() {
        OperatorApiOnly.require(uri);
        return lagHistory.samples();
    }
}

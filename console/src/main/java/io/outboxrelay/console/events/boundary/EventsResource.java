package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.entity.BulkReplayResult;
import io.outboxrelay.console.events.entity.EventDetail;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.EventPage;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.security.boundary.OperatorApiOnly;
import io.outboxrelay.outbox.entity.EventStatus;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Find, inspect and replay events. Reading needs any operator-API role; replaying needs {@code operator}. */
@Path("events")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
@Tag(name = "events")
public class EventsResource {

    private static final Set<EventStatus> REPLAYABLE = EnumSet.of(EventStatus.DLT, EventStatus.DEAD);

    @Context
    UriInfo uri;

    @Inject
    Events queries;

    @Inject
    Replays replays;

    @Operation(operationId = "searchEvents", summary = "Search events, newest first",
            description = "By event id (exact), aggregate type and id, event type, statuses and a time range; keyset-paged"
                    + " through the returned cursor.")
    @APIResponse(responseCode = "200", description = "A page of events and the cursor of the next one")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    public EventPage search(@QueryParam("eventId") String eventId, @QueryParam("aggregateType") String aggregateType,
                            @QueryParam("aggregateId") String aggregateId, @QueryParam("eventType") String eventType,
                            @QueryParam("status") List<String> status, @QueryParam("from") String from,
                            @QueryParam("to") String to, @QueryParam("cursor") String cursor,
                            @QueryParam("size") String size) throws SQLException {
        OperatorApiOnly.require(uri);
        EventFilter filter = FilterParameters.filter(eventId, aggregateType, aggregateId, eventType, status, from, to);
        return queries.search(filter, FilterParameters.cursor(cursor), FilterParameters.pageSize(size));
    }

    @Operation(operationId = "getEvent", summary = "One event's whole story",
            description = "The row, its payload and headers, attempts and last error, where it landed in Kafka, and its replays.")
    @APIResponse(responseCode = "200", description = "The event")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    @Path("{eventId}")
    public EventDetail find(@PathParam("eventId") String eventId) throws SQLException {
        OperatorApiOnly.require(uri);
        UUID id = FilterParameters.uuid("eventId", eventId);
        return queries.find(id).orElseThrow(() -> new EventNotFoundException(id));
    }

    @Operation(operationId = "replayEvent", summary = "Replay one dead letter",
            description = "A DLT or DEAD event becomes PENDING again with its attempts reset; the replay is audited.")
    @APIResponse(responseCode = "200", description = "The event is PENDING again")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @POST
    @Path("{eventId}/replay")
    @RolesAllowed("operator")
    public Map<String, Object> replay(@PathParam("eventId") String eventId, @Context SecurityContext security) {
        OperatorApiOnly.require(uri);
        UUID id = FilterParameters.uuid("eventId", eventId);
        replays.replayOne(id, security.getUserPrincipal().getName());
        return Map.of("eventId", id, "status", EventStatus.PENDING);
    }

    @Operation(operationId = "replayMatchingEvents", summary = "Replay the dead letters matching a filter",
            description = "With dryRun only counts. The cutoff is fixed when the request starts, so events that fail while"
                    + " it runs are not swept in; at most outbox.replay.max-per-request events; audited.")
    @APIResponse(responseCode = "200", description = "How many matched and how many were replayed")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @POST
    @Path("replay")
    @RolesAllowed("operator")
    public BulkReplayResult replayMatching(BulkReplayRequest request, @Context SecurityContext security) {
        OperatorApiOnly.require(uri);
        if (request == null) {
            throw new InvalidInputException("a JSON body with the filter (and dryRun) is required");
        }
        EventFilter filter = FilterParameters.filter(request.eventId(), request.aggregateType(), request.aggregateId(),
                request.eventType(), request.status(), request.from(), request.to());
        if (!REPLAYABLE.containsAll(filter.statuses())) {
            throw new InvalidInputException("only DLT and DEAD events can be replayed; 'status' may name only those");
        }
        EventFilter deadLetters = filter.statuses().isEmpty() ? filter.withStatuses(REPLAYABLE) : filter;
        return replays.replayMatching(deadLetters, Boolean.TRUE.equals(request.dryRun()),
                security.getUserPrincipal().getName());
    }
}

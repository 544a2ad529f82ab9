package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.BulkReplayResult;
import io.outboxrelay.console.events.entity.EventDetail;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.EventPage;
import io.outboxrelay.outbox.entity.EventStatus;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
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

import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Find, inspect and replay events. Reading needs any operator-API role; replaying needs {@code operator}. */
@Path("events")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
public class EventsResource {

    private static final Set<EventStatus> REPLAYABLE = EnumSet.of(EventStatus.DLT, EventStatus.DEAD);

    @Inject
    Events queries;

    @Inject
    Replays replays;

    @GET
    public EventPage search(@QueryParam("eventId") String eventId, @QueryParam("aggregateType") String aggregateType,
                            @QueryParam("aggregateId") String aggregateId, @QueryParam("eventType") String eventType,
                            @QueryParam("status") List<String> status, @QueryParam("from") String from,
                            @QueryParam("to") String to, @QueryParam("cursor") String cursor,
                            @QueryParam("size") String size) throws SQLException {
        EventFilter filter = FilterParameters.filter(eventId, aggregateType, aggregateId, eventType, status, from, to);
        return queries.search(filter, FilterParameters.cursor(cursor), FilterParameters.pageSize(size));
    }

    @GET
    @Path("{eventId}")
    public EventDetail find(@PathParam("eventId") String eventId) throws SQLException {
        UUID id = FilterParameters.uuid("eventId", eventId);
        return queries.find(id).orElseThrow(() -> new EventNotFoundException(id));
    }

    @POST
    @Path("{eventId}/replay")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed("operator")
    public Map<String, Object> replay(@PathParam("eventId") String eventId, @Context SecurityContext security) {
        UUID id = FilterParameters.uuid("eventId", eventId);
        replays.replayOne(id, security.getUserPrincipal().getName());
        return Map.of("eventId", id, "status", EventStatus.PENDING);
    }

    @POST
    @Path("replay")
    @RolesAllowed("operator")
    public BulkReplayResult replayMatching(BulkReplayRequest request, @Context SecurityContext security) {
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

package io.outboxrelay.console.consumers.boundary;

import io.outboxrelay.console.consumers.control.ConsumerDeadLetterCriteria;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterDetail;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterGroup;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotFoundException;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterPage;
import io.outboxrelay.console.consumers.entity.ConsumerReplayResult;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.problem.boundary.Parameters;
import io.outboxrelay.console.security.boundary.OperatorApiOnly;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The records consumer groups gave up on: list, triage groups, one with its record, and replays to the
 * record's own group alone. Reading needs any operator-API role; replaying needs {@code operator}.
 */
@Path("consumer-dead-letters")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
@Tag(name = "consumers")
public class ConsumerDeadLettersResource {

    private static final int MAX_TEXT = 300;

    @Context
    UriInfo uri;

    @Inject
    ConsumerDeadLetterQueries queries;

    @Inject
    ConsumerReplayRequests replays;

    @Operation(operationId = "searchConsumerDeadLetters", summary = "Search consumer dead letters, newest first",
            description = "By consumer group, topic, error class, event id and state (DEAD_LETTERED, REPLAY_REQUESTED,"
                    + " REPLAYING, REPLAYED); keyset-paged through the returned cursor.")
    @APIResponse(responseCode = "200", description = "A page of consumer dead letters and the cursor of the next one")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    public ConsumerDeadLetterPage search(@QueryParam("consumerGroup") String group, @QueryParam("topic") String topic,
                                         @QueryParam("errorClass") String errorClass, @QueryParam("eventId") String eventId,
                                         @QueryParam("status") String status, @QueryParam("cursor") String cursor,
                                         @QueryParam("size") String size) throws SQLException {
        OperatorApiOnly.require(uri);
        ConsumerDeadLetterFilter filter = new ConsumerDeadLetterFilter(text("consumerGroup", group), text("topic", topic),
                text("errorClass", errorClass), Parameters.uuid("eventId", eventId), status(status));
        return queries.search(filter, cursor(cursor), Parameters.pageSize(Parameters.wholeNumber("size", size)));
    }

    @Operation(operationId = "groupConsumerDeadLetters", summary = "The consumer dead letters waiting, by group, topic and error",
            description = "Only those waiting for an operator (DEAD_LETTERED), the biggest group first.")
    @APIResponse(responseCode = "200", description = "Triage groups")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    @Path("groups")
    public List<ConsumerDeadLetterGroup> groups() throws SQLException {
        OperatorApiOnly.require(uri);
        return queries.groups();
    }

    @Operation(operationId = "getConsumerDeadLetter", summary = "One consumer dead letter with its record",
            description = "Where the record lay, the error with its stack trace, the attempts, the record's key, value and"
                    + " headers, and what became of it.")
    @APIResponse(responseCode = "200", description = "The consumer dead letter")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @GET
    @Path("{id}")
    public ConsumerDeadLetterDetail find(@PathParam("id") String id) throws SQLException {
        OperatorApiOnly.require(uri);
        long letter = id(id);
        return queries.find(letter).orElseThrow(() -> new ConsumerDeadLetterNotFoundException(letter));
    }

    @Operation(operationId = "replayConsumerDeadLetter", summary = "Replay one consumer dead letter to its group",
            description = "The record goes to its consumer group's handler alone (not through Kafka, so no other group"
                    + " sees it again), on a server that runs that handler, deduplicated as any record; audited.")
    @APIResponse(responseCode = "200", description = "The replay is asked for")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @POST
    @Path("{id}/replay")
    @RolesAllowed("operator")
    public Map<String, Object> replay(@PathParam("id") String id, @Context SecurityContext security) {
        OperatorApiOnly.require(uri);
        long letter = id(id);
        String group = replays.replayOne(letter, security.getUserPrincipal().getName());
        return Map.of("id", letter, "consumerGroup", group, "status", "REPLAY_REQUESTED");
    }

    @Operation(operationId = "replayMatchingConsumerDeadLetters", summary = "Replay the consumer dead letters matching a filter",
            description = "Each to its own consumer group alone. With dryRun only counts. Only those waiting for an operator"
                    + " and last changed before the request started; at most outbox.replay.max-per-request; audited.")
    @APIResponse(responseCode = "200", description = "How many matched and how many replays were asked for")
    @APIResponse(responseCode = "400", ref = "BadRequest")
    @APIResponse(responseCode = "401", ref = "Unauthorized")
    @APIResponse(responseCode = "403", ref = "Forbidden")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "Unavailable")
    @POST
    @Path("replay")
    @RolesAllowed("operator")
    public ConsumerReplayResult replayMatching(ConsumerReplayRequest request, @Context SecurityContext security) {
        OperatorApiOnly.require(uri);
        if (request == null) {
            throw new InvalidInputException("a JSON body with the filter (and dryRun) is required");
        }
        ConsumerDeadLetterFilter filter = new ConsumerDeadLetterFilter(text("consumerGroup", request.consumerGroup()),
                text("topic", request.topic()), text("errorClass", request.errorClass()),
                Parameters.uuid("eventId", request.eventId()), null);
        return replays.replayMatching(filter, Boolean.TRUE.equals(request.dryRun()), security.getUserPrincipal().getName());
    }

    private static String text(String name, String value) {
        return Parameters.text(name, value, MAX_TEXT);
    }

    private static String status(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String status = value.trim().toUpperCase(Locale.ROOT);
        if (!ConsumerDeadLetterCriteria.STATES.contains(status)) {
            throw new InvalidInputException("'status' must be one of " + ConsumerDeadLetterCriteria.STATES);
        }
        return status;
    }

    private static long id(String value) {
        Long id = Parameters.positive(value, "'id' must be a consumer dead letter's id, a whole number above 0");
        if (id == null) {
            throw new InvalidInputException("'id' must be a consumer dead letter's id, a whole number above 0");
        }
        return id;
    }

    private static Long cursor(String value) {
        return Parameters.positive(value, "'cursor' must be the nextCursor of an earlier page");
    }
}

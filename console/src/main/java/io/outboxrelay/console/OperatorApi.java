package io.outboxrelay.console;

import io.outboxrelay.console.consumers.boundary.ConsumerDeadLettersResource;
import io.outboxrelay.console.consumers.boundary.ConsumerProblems;
import io.outboxrelay.console.events.boundary.AuditResource;
import io.outboxrelay.console.events.boundary.EventProblems;
import io.outboxrelay.console.events.boundary.EventsResource;
import io.outboxrelay.console.events.boundary.LagResource;
import io.outboxrelay.console.problem.boundary.Authentication;
import io.outboxrelay.console.problem.boundary.ConstraintViolationMapper;
import io.outboxrelay.console.problem.boundary.ExactJson;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.problem.boundary.Problem;
import io.outboxrelay.console.problem.boundary.StrictJson;
import io.outboxrelay.console.problem.boundary.UnexpectedFailureMapper;
import io.outboxrelay.console.problem.boundary.WebApplicationExceptionMapper;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.info.License;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Set;

/**
 * The operator REST API, under {@code /outbox/api}. It names its resources and providers itself, so none of
 * them reaches an application's own REST endpoints when the console is embedded in that application's WAR.
 */
@ApplicationPath("/outbox/api")
@OpenAPIDefinition(
        info = @Info(title = "Outbox Relay operator API", version = "0.1.0",
                description = "Find any event of the outbox by its id and follow it to its consumers, search and replay dead"
                        + " letters (the relay's, and consumer groups' to their group alone),"
                        + " read the replay audit log and the lag. Reading needs the role viewer or operator, replaying"
                        + " the role operator. Every error is an RFC 9457 problem document.",
                license = @License(name = "All rights reserved: no license granted yet",
                        url = "https://choosealicense.com/no-permission/")),
        security = @SecurityRequirement(name = OperatorApi.BASIC),
        tags = {
                @Tag(name = "events", description = "The outbox's events: search, one event's story, replays"),
                @Tag(name = "consumers", description = "The records consumer groups gave up on, and their replay to one group"),
                @Tag(name = "audit", description = "Who replayed what, and when"),
                @Tag(name = "lag", description = "How far behind publishing and consuming are")},
        components = @Components(responses = {
                @APIResponse(name = OperatorApi.BAD_REQUEST, responseCode = "400",
                        description = "A parameter or the body is invalid; the problem names it",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.UNAUTHORIZED, responseCode = "401",
                        description = "No or wrong credentials: sign in with HTTP Basic",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.FORBIDDEN, responseCode = "403",
                        description = "Signed in, but without the role this needs; or a change sent by a page of another site",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.NOT_FOUND, responseCode = "404",
                        description = "No event (or consumer dead letter) has this id",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.CONFLICT, responseCode = "409",
                        description = "Not a dead letter waiting for an operator (only DLT and DEAD events, and DEAD_LETTERED"
                                + " consumer dead letters, can be replayed)",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.UNSUPPORTED, responseCode = "415",
                        description = "A change not declared as application/json (send that Content-Type, also without a body)",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class))),
                @APIResponse(name = OperatorApi.UNAVAILABLE, responseCode = "503",
                        description = "The database is not reachable right now; nothing was changed",
                        content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))}))
@SecurityScheme(securitySchemeName = OperatorApi.BASIC, type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "A user of the server's registry in the group outbox-operators or outbox-viewers")
public class OperatorApi extends Application {

    /** The operation responses below are referred to by these names from the resources' annotations. */
    static final String BASIC = "basic";
    static final String BAD_REQUEST = "BadRequest";
    static final String UNAUTHORIZED = "Unauthorized";
    static final String FORBIDDEN = "Forbidden";
    static final String NOT_FOUND = "NotFound";
    static final String CONFLICT = "Conflict";
    static final String UNSUPPORTED = "UnsupportedMediaType";
    static final String UNAVAILABLE = "Unavailable";

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(EventsResource.class, ConsumerDeadLettersResource.class, AuditResource.class, LagResource.class,
                Authentication.class, StrictJson.class, ExactJson.class, EventProblems.EventNotFound.class, EventProblems.NotReplayable.class,
                ConsumerProblems.NotFound.class, ConsumerProblems.NotReplayable.class,
                InvalidInputException.Mapper.class, ConstraintViolationMapper.class, WebApplicationExceptionMapper.class,
                UnexpectedFailureMapper.class);
    }
}

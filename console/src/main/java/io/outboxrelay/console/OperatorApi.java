package io.outboxrelay.console;

import io.outboxrelay.console.events.boundary.AuditResource;
import io.outboxrelay.console.events.boundary.EventProblems;
import io.outboxrelay.console.events.boundary.EventsResource;
import io.outboxrelay.console.events.boundary.LagResource;
import io.outboxrelay.console.problem.boundary.Authentication;
import io.outboxrelay.console.problem.boundary.ConstraintViolationMapper;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.problem.boundary.StrictJson;
import io.outboxrelay.console.problem.boundary.UnexpectedFailureMapper;
import io.outboxrelay.console.problem.boundary.WebApplicationExceptionMapper;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

import java.util.Set;

/**
 * The operator REST API, under {@code /outbox/api}. It names its resources and providers itself, so none of
 * them reaches an application's own REST endpoints when the console is embedded in that application's WAR.
 */
@ApplicationPath("/outbox/api")
public class OperatorApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(EventsResource.class, AuditResource.class, LagResource.class,
                Authentication.class, StrictJson.class, EventProblems.EventNotFound.class, EventProblems.NotReplayable.class,
                InvalidInputException.Mapper.class, ConstraintViolationMapper.class, WebApplicationExceptionMapper.class,
                UnexpectedFailureMapper.class);
    }
}

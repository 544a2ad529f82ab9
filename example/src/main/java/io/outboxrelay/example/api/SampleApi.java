package io.outboxrelay.example.api;

import io.outboxrelay.console.problem.boundary.ConstraintViolationMapper;
import io.outboxrelay.console.problem.boundary.ExactJson;
import io.outboxrelay.console.problem.boundary.InvalidInputException;
import io.outboxrelay.console.problem.boundary.StrictJson;
import io.outboxrelay.console.problem.boundary.UnexpectedFailureMapper;
import io.outboxrelay.console.problem.boundary.WebApplicationExceptionMapper;
import io.outboxrelay.example.orders.boundary.OrdersResource;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

import java.util.Set;

/**
 * The sample's business API under {@code /api}, answering errors as problem documents. It lists its classes, as
 * the operator API does, so each API keeps its own providers.
 */
@ApplicationPath("/api")
public class SampleApi extends Application {

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(OrdersResource.class, CorrelationEcho.class, StrictJson.class, ExactJson.class,
                OrderProblems.NotFound.class, OrderProblems.Conflict.class, InvalidInputException.Mapper.class,
                ConstraintViolationMapper.class, WebApplicationExceptionMapper.class, UnexpectedFailureMapper.class);
    }
}

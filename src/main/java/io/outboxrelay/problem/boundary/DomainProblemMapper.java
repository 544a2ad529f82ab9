package io.outboxrelay.problem.boundary;

import io.outboxrelay.orders.entity.IllegalOrderTransitionException;
import io.outboxrelay.orders.entity.OrderNotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Business refusals: an unknown order or event → 404, a transition its status forbids → 409. */
public final class DomainProblemMapper {

    private DomainProblemMapper() {
    }

    @Provider
    public static class NotFound implements ExceptionMapper<OrderNotFoundException> {
        @Override
        public Response toResponse(OrderNotFoundException exception) {
            return new Problem(404, "Order not found", exception.getMessage()).toResponse();
        }
    }

    @Provider
    public static class Conflict implements ExceptionMapper<IllegalOrderTransitionException> {
        @Override
        public Response toResponse(IllegalOrderTransitionException exception) {
            return new Problem(409, "Illegal order transition", exception.getMessage()).toResponse();
        }
    }

    @Provider
    public static class EventNotFound implements ExceptionMapper<io.outboxrelay.events.entity.EventNotFoundException> {
        @Override
        public Response toResponse(io.outboxrelay.events.entity.EventNotFoundException exception) {
            return new Problem(404, "Event not found", exception.getMessage()).toResponse();
        }
    }

    @Provider
    public static class NotReplayable implements ExceptionMapper<io.outboxrelay.events.entity.NotReplayableException> {
        @Override
        public Response toResponse(io.outboxrelay.events.entity.NotReplayableException exception) {
            return new Problem(409, "Not replayable", exception.getMessage()).toResponse();
        }
    }
}

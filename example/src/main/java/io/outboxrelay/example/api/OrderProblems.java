package io.outboxrelay.example.api;

import io.outboxrelay.console.problem.boundary.Problem;
import io.outboxrelay.example.orders.entity.IllegalOrderTransitionException;
import io.outboxrelay.example.orders.entity.OrderNotFoundException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** The sample's business refusals: an unknown order → 404, a transition its status forbids → 409. */
public final class OrderProblems {

    private OrderProblems() {
    }

    public static class NotFound implements ExceptionMapper<OrderNotFoundException> {
        @Override
        public Response toResponse(OrderNotFoundException exception) {
            return new Problem(404, "Order not found", exception.getMessage()).toResponse();
        }
    }

    public static class Conflict implements ExceptionMapper<IllegalOrderTransitionException> {
        @Override
        public Response toResponse(IllegalOrderTransitionException exception) {
            return new Problem(409, "Illegal order transition", exception.getMessage()).toResponse();
        }
    }
}

package io.outboxrelay.console.problem.boundary;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** A request parameter a resource rejected; its message is written for the client. */
public class InvalidInputException extends RuntimeException {

    public InvalidInputException(String message) {
        super(message);
    }

    public static class Mapper implements ExceptionMapper<InvalidInputException> {
        @Override
        public Response toResponse(InvalidInputException exception) {
            return new Problem(400, "Invalid request", exception.getMessage()).toResponse();
        }
    }
}

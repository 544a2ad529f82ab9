package io.outboxrelay.console.problem.boundary;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.util.List;

/** Invalid input → 400, listing every violated rule (the field paths, never the rejected values). */
public class ConstraintViolationMapper implements ExceptionMapper<ConstraintViolationException> {

    @Override
    public Response toResponse(ConstraintViolationException exception) {
        List<String> errors = exception.getConstraintViolations().stream()
                .map(ConstraintViolationMapper::describe)
                .sorted()
                .toList();
        return new Problem(400, "Invalid request", "The request does not meet the API's rules.", errors)
                .toResponse();
    }

    private static String describe(ConstraintViolation<?> violation) {
        String path = violation.getPropertyPath().toString();
        // method parameters appear as "create.arg0.lines[0].sku": keep the part a client wrote
        int bodyStart = path.indexOf(".", path.indexOf(".") + 1);
        String field = bodyStart < 0 ? "" : path.substring(bodyStart + 1);
        return field.isEmpty() ? violation.getMessage() : field + ": " + violation.getMessage();
    }
}

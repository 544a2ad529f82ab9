package io.outboxrelay.console.problem.boundary;

import io.outboxrelay.database.boundary.DatabaseFailures;
import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The last line: a body the JSON binding could not read is the client's fault (400); anything
 * else is ours (500), logged with an incident id that the answer repeats, so an operator can
 * find the stack trace without the client ever seeing it.
 */
public class UnexpectedFailureMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(UnexpectedFailureMapper.class.getName());

    @Override
    public Response toResponse(Throwable failure) {
        if (isUnreadableBody(failure)) {
            return new Problem(400, "Bad Request",
                    "The request body could not be read: it must be well-formed JSON of the documented shape.")
                    .toResponse();
        }
        if (DatabaseFailures.isUnavailable(failure)) {
            return new Problem(503, "Service Unavailable",
                    "The database is not reachable right now; nothing was changed. Try again shortly.").toResponse();
        }
        String incident = UUID.randomUUID().toString();
        LOG.log(Level.SEVERE, "Unexpected failure, incident " + incident, failure);
        return new Problem(500, "Internal Server Error",
                "The server failed to handle the request; incident " + incident + " is logged.").toResponse();
    }

    private static boolean isUnreadableBody(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonbException || cause instanceof jakarta.json.stream.JsonParsingException) {
                return true;
            }
        }
        return failure instanceof ProcessingException;
    }
}

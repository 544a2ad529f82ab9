package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.NotReplayableException;
import io.outboxrelay.console.problem.boundary.Problem;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** The operator API's refusals: an unknown event → 404, a replay of an event that is not a dead letter → 409. */
public final class EventProblems {

    private EventProblems() {
    }

    public static class EventNotFound implements ExceptionMapper<EventNotFoundException> {
        @Override
        public Response toResponse(EventNotFoundException exception) {
            return new Problem(404, "Event not found", exception.getMessage()).toResponse();
        }
    }

    public static class NotReplayable implements ExceptionMapper<NotReplayableException> {
        @Override
        public Response toResponse(NotReplayableException exception) {
            return new Problem(409, "Not replayable", exception.getMessage()).toResponse();
        }
    }
}

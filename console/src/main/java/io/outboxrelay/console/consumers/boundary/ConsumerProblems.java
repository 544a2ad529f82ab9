package io.outboxrelay.console.consumers.boundary;

import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotFoundException;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotReplayableException;
import io.outboxrelay.console.problem.boundary.Problem;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** The operator API's refusals about consumer dead letters: an unknown one → 404, a replay of one not waiting → 409. */
public final class ConsumerProblems {

    private ConsumerProblems() {
    }

    public static class NotFound implements ExceptionMapper<ConsumerDeadLetterNotFoundException> {
        @Override
        public Response toResponse(ConsumerDeadLetterNotFoundException exception) {
            return new Problem(404, "Consumer dead letter not found", exception.getMessage()).toResponse();
        }
    }

    public static class NotReplayable implements ExceptionMapper<ConsumerDeadLetterNotReplayableException> {
        @Override
        public Response toResponse(ConsumerDeadLetterNotReplayableException exception) {
            return new Problem(409, "Not replayable", exception.getMessage()).toResponse();
        }
    }
}

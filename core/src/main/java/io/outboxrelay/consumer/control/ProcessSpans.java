package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.ConsumerOutcome;
import io.outboxrelay.tracing.boundary.MessageSpan;
import io.outboxrelay.tracing.boundary.Tracing;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.Locale;

/**
 * The {@code process <topic>} span of a record a consumer group handles (or replays from its dead letters),
 * when the server traces: a child of the relay's {@code send} span, whose context the record carries.
 */
public final class ProcessSpans {

    private ProcessSpans() {
    }

    public static MessageSpan start(Tracing tracing, String group, ConsumerRecord<?, ?> record, boolean replay) {
        if (!tracing.active()) {
            return MessageSpan.NONE;
        }
        return tracing.processing(group, record.topic(), record.partition(), record.offset(),
                IncomingEvents.eventIdHeader(record), replay, name -> IncomingEvents.header(record, name));
    }

    /** Ends the span of a record left unhandled: the server is stopping, or the handling could not finish. */
    public static void interrupted(MessageSpan span) {
        span.outcome("interrupted");
        span.end();
    }

    /** Ends the span with the outcome; a dead letter marks it failed with the last error. */
    public static void end(MessageSpan span, ConsumerOutcome.Kind kind, Retrying.Result result) {
        span.outcome(kind.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        if (kind == ConsumerOutcome.Kind.DEAD_LETTERED && result.lastError() != null) {
            span.failed(result.lastError());
        }
        span.end();
    }
}

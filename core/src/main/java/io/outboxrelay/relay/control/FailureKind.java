package io.outboxrelay.relay.control;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnsupportedForMessageFormatException;

/** How a failed send is treated. */
public enum FailureKind {
    /** The record itself can never pass (too large, illegal topic, not allowed): straight to the DLT. */
    FINAL,
    /** Tied to this record but may pass later (topic not created yet, say): retry with backoff. */
    RETRYABLE,
    /**
     * A timeout or lost connection: either the broker is down (an outage, not the event's fault)
     * or something about this record's topic is wrong. A probe of the cluster decides.
     */
    AMBIGUOUS;

    public static FailureKind of(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof RecordTooLargeException
                || cause instanceof RecordBatchTooLargeException
                || cause instanceof InvalidTopicException
                || cause instanceof AuthorizationException
                || cause instanceof SerializationException
                || cause instanceof InvalidRecordException
                || cause instanceof UnsupportedForMessageFormatException) {
            return FINAL;
        }
        if (cause instanceof TimeoutException || cause instanceof NetworkException
                || cause instanceof java.util.concurrent.TimeoutException) {
            return AMBIGUOUS;
        }
        return RETRYABLE;
    }

    /** The Kafka error behind the wrappers futures add. */
    public static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof java.util.concurrent.ExecutionException
                || cause instanceof java.util.concurrent.CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}

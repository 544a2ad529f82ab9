package io.outboxrelay.devstack;

/** A failure to report to the user as one line, without a stack trace. */
final class DevStackException extends RuntimeException {

    DevStackException(String message) {
        super(message);
    }

    DevStackException(String message, Throwable cause) {
        super(message, cause);
    }
}

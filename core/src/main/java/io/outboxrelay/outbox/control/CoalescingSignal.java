package io.outboxrelay.outbox.control;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an action on an executor after each {@link #raise()}, but never twice at once: the raises
 * made while the action runs share its next run. So a thousand commits a second that each ask for
 * a notification cost as many notifications as one sender can make in a row, one at a time, and the
 * committing threads never wait for one.
 */
public final class CoalescingSignal {

    private final Executor executor;
    private final Runnable action;
    private final AtomicBoolean raised = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean();

    /** {@code action} must not throw; it runs on {@code executor}. */
    public CoalescingSignal(Executor executor, Runnable action) {
        this.executor = executor;
        this.action = action;
    }

    /** Asks for one more run of the action, which starts after this call (never before it). */
    public void raise() {
        raised.set(true);
        start();
    }

    private void start() {
        if (!running.compareAndSet(false, true)) {
            return; // the running loop sees the raise
        }
        try {
            executor.execute(this::runWhileRaised);
        } catch (RejectedExecutionException shuttingDown) {
            running.set(false);
            throw shuttingDown;
        }
    }

    private void runWhileRaised() {
        try {
            while (raised.getAndSet(false)) {
                action.run();
            }
        } finally {
            running.set(false);
        }
        if (raised.get()) {
            try {
                start(); // raised between the loop's last look and the release
            } catch (RejectedExecutionException shuttingDown) {
                // the executor is stopping: the raise that came too late is the caller's loss, as in raise()
            }
        }
    }
}

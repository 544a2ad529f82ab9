package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayRound;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One claiming loop with its own lease owner id. A drain runs rounds until a round finds
 * nothing to claim; a wake-up during a drain makes it run once more, so a commit is never left
 * for the next poll.
 */
final class RelayWorker {

    private static final Logger LOG = Logger.getLogger(RelayWorker.class.getName());

    private final String owner;
    private final RelayRound round;
    private final Executor executor;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopping;
    private String lastFailure;

    RelayWorker(String owner, RelayRound round, Executor executor) {
        this.owner = owner;
        this.round = round;
        this.executor = executor;
    }

    String owner() {
        return owner;
    }

    void wake() {
        wakeRequested.set(true);
        if (!draining.get() && !stopping) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException shuttingDown) {
                // the poll will not come either; nothing to do
            }
        }
    }

    void drain() {
        if (stopping || !draining.compareAndSet(false, true)) {
            return;
        }
        try {
            do {
                wakeRequested.set(false);
                while (!stopping && round.run(owner) > 0) {
                    // keep going while there is work: a backlog drains at full speed
                }
            } while (!stopping && wakeRequested.get());
            recovered();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (Exception failure) {
            failed(failure);
        } finally {
            draining.set(false);
            synchronized (this) {
                notifyAll();
            }
        }
        if (wakeRequested.get() && !stopping) {
            wake(); // woken between the drain's last look and its end
        }
    }

    /** Logs a failure once, not at every poll while it lasts (the database being down, say). */
    private void failed(Exception failure) {
        String description = String.valueOf(failure);
        if (!description.equals(lastFailure)) {
            LOG.log(Level.WARNING, "Relay round of " + owner + " failed; retrying at every poll until it passes", failure);
            lastFailure = description;
        }
    }

    private void recovered() {
        if (lastFailure != null) {
            LOG.info(() -> "Relay rounds of " + owner + " pass again");
            lastFailure = null;
        }
    }

    void stop() {
        stopping = true;
    }

    /** Waits until the round in flight has finished, at most {@code millis}. */
    synchronized void awaitIdle(long millis) {
        long deadline = System.currentTimeMillis() + millis;
        while (draining.get() && System.currentTimeMillis() < deadline) {
            try {
                wait(Math.max(1, deadline - System.currentTimeMillis()));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

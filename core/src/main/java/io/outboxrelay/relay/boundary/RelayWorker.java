package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayConnections;
import io.outboxrelay.relay.control.RelayRound;
import io.outboxrelay.relay.control.RelayRound.Flight;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One claiming loop with its own lease owner id. A drain runs rounds until a round finds
 * nothing to claim; a wake-up during a drain makes it run once more, so a commit is never left
 * for the next poll. Pipelined (the default), the next batch is claimed and sent while the current
 * one waits for Kafka's acknowledgements and is recorded, so the database and Kafka work at once;
 * at most two batches are in flight, and the ordered claim keeps them to different aggregates.
 * A drain's rounds share one database connection (a {@link RelayConnections.Session}) for the statements they run on
 * its thread; a batch claimed beside another, on a second thread, takes its own from the pool.
 * <p>
 * With a gathering time ({@code outbox.relay.gather-ms}), a drain waits that long after a batch that found no
 * backlog before it claims again, so that a steady stream of commits goes in fewer, larger rounds: each round costs
 * the database, this server and Kafka about the same whatever it holds, and at a trickle a round holds a handful.
 */
final class RelayWorker {

    private static final Logger LOG = Logger.getLogger(RelayWorker.class.getName());

    private final String owner;
    private final RelayRound round;
    private final Executor executor;
    private final Supplier<RelayConnections.Session> sessions;
    private final boolean pipelined;
    private final int batchSize;
    private final Duration gather;
    private final Pause pause;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean wakeRequested = new AtomicBoolean();
    private volatile boolean stopping;
    private String lastFailure;

    /** How a drain waits out its gathering time. */
    @FunctionalInterface
    interface Pause {
        void await(Duration time) throws InterruptedException;
    }

    RelayWorker(String owner, RelayRound round, Executor executor, Supplier<RelayConnections.Session> sessions,
                boolean pipelined, int batchSize, Duration gather) {
        this(owner, round, executor, sessions, pipelined, batchSize, gather, null);
    }

    /** As above, the gathering time waited out by {@code pause} ({@code null}: until it passed or the worker stops). */
    RelayWorker(String owner, RelayRound round, Executor executor, Supplier<RelayConnections.Session> sessions,
                boolean pipelined, int batchSize, Duration gather, Pause pause) {
        this.owner = owner;
        this.round = round;
        this.executor = executor;
        this.sessions = sessions;
        this.pipelined = pipelined;
        this.batchSize = batchSize;
        this.gather = gather;
        this.pause = pause != null ? pause : this::awaitUnlessStopping;
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
        try (RelayConnections.Session session = sessions.get()) {
            do {
                wakeRequested.set(false);
                if (pipelined) {
                    drainPipelined();
                } else {
                    int claimed;
                    while (!stopping && (claimed = round.run(owner)) > 0) {
                        // keep going while there is work: a backlog drains at full speed
                        if (!backlog(claimed)) {
                            gather();
                        }
                    }
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

    /**
     * Lands each large batch while the next one is claimed and sent on another thread. A batch under half
     * the batch size means there is no backlog: the next one is then claimed after it landed (and the
     * gathering time), as unpipelined, which keeps a trickle of events from paying for the second thread's
     * hand-over. (Half, not full: while one batch is in flight the next cannot hold its aggregates, so it is
     * often a little short of full although rows wait.)
     */
    private void drainPipelined() throws Exception {
        Optional<Flight> flight = stopping ? Optional.empty() : round.launch(owner);
        while (flight.isPresent()) {
            CompletableFuture<Optional<Flight>> next = null;
            try {
                if (!stopping && backlog(flight.get().claimed().size())) {
                    next = launchBeside();
                }
                round.land(flight.get());
            } catch (Exception failure) {
                landAfterFailure(next, failure);
                throw failure;
            }
            if (next == null) {
                gather();
            }
            Optional<Flight> following = next != null ? launched(next) : Optional.empty();
            // a claim beside a batch finds that batch's aggregates taken: with fewer aggregates waiting than two
            // batches hold, it found nothing, though the batch just landed has freed them; claim again, not only at
            // the next poll (a backlog of 400 aggregates went one batch per poll, 800 events/s)
            flight = following.isPresent() || stopping ? following : round.launch(owner);
        }
    }

    /** The next batch's launch on another thread; null if the executor takes no more tasks (it is stopping). */
    private CompletableFuture<Optional<Flight>> launchBeside() {
        try {
            return CompletableFuture.supplyAsync(this::launchNext, executor);
        } catch (RejectedExecutionException shuttingDown) {
            return null;
        }
    }

    private Optional<Flight> launchNext() {
        try {
            return round.launch(owner);
        } catch (SQLException failure) {
            throw new CompletionException(failure);
        }
    }

    private static Optional<Flight> launched(CompletableFuture<Optional<Flight>> next) throws Exception {
        try {
            return next.get();
        } catch (ExecutionException failed) {
            throw failed.getCause() instanceof Exception cause ? cause : failed;
        }
    }

    /** The batch launched beside one whose landing failed is still landed, if it can be: its rows are leased. */
    private void landAfterFailure(CompletableFuture<Optional<Flight>> next, Exception failure) {
        if (next == null) {
            return;
        }
        try {
            Optional<Flight> other = launched(next);
            if (other.isPresent()) {
                round.land(other.get());
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            failure.addSuppressed(interrupted);
        } catch (Exception another) {
            failure.addSuppressed(another);
        }
    }

    /**
     * Whether a batch of {@code claimed} events means more wait: half the batch size or more (see
     * {@link #drainPipelined}).
     */
    private boolean backlog(int claimed) {
        return 2 * claimed >= batchSize;
    }

    /** Waits the gathering time, if there is one, unless the worker is stopping. */
    private void gather() throws InterruptedException {
        if (!gather.isZero() && !stopping) {
            pause.await(gather);
        }
    }

    /** Waits until {@code time} has passed or {@link #stop()} was called. */
    private synchronized void awaitUnlessStopping(Duration time) throws InterruptedException {
        long deadline = System.nanoTime() + time.toNanos();
        for (long left = time.toNanos(); left > 0 && !stopping; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
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
        synchronized (this) {
            notifyAll(); // a drain waiting out its gathering time ends now
        }
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

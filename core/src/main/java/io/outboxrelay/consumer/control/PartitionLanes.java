package io.outboxrelay.consumer.control;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs work in lanes, one lane per Kafka partition: work of one lane runs one piece after the
 * other in the order it was submitted (so per-partition order holds); work of different lanes
 * runs at the same time, at most {@code concurrency} pieces at once.
 * <p>
 * At most {@code capacity} pieces wait or run; {@link #submit} answers a stage that completes
 * once its piece is taken, later when the lanes are full. The reactive stream waits for that
 * stage before it delivers the next record, so a stuck partition holds back the others only
 * once the lanes are full of its records.
 */
public final class PartitionLanes {

    private static final Logger LOG = Logger.getLogger(PartitionLanes.class.getName());

    private final int concurrency;
    private final int capacity;
    private final Executor executor;

    private final Map<String, Lane> lanes = new HashMap<>();
    private final Queue<Lane> ready = new ArrayDeque<>();
    private final Queue<CompletableFuture<Void>> waitingForRoom = new ArrayDeque<>();
    private int workers;
    private int held;

    public PartitionLanes(int concurrency, int capacity, Executor executor) {
        this.concurrency = Math.max(1, concurrency);
        this.capacity = Math.max(this.concurrency, capacity);
        this.executor = executor;
    }

    public CompletionStage<Void> submit(String lane, Runnable work) {
        CompletableFuture<Void> taken = new CompletableFuture<>();
        int toStart;
        synchronized (this) {
            Lane target = lanes.computeIfAbsent(lane, Lane::new);
            target.work.add(work);
            held++;
            if (!target.scheduled) {
                target.scheduled = true;
                ready.add(target);
            }
            if (held < capacity) {
                taken.complete(null);
            } else {
                waitingForRoom.add(taken);
            }
            toStart = Math.min(concurrency - workers, ready.size());
            workers += Math.max(0, toStart);
        }
        for (int i = 0; i < toStart; i++) {
            startWorker();
        }
        return taken;
    }

    /** Pieces waiting or running, for tests and diagnostics. */
    public synchronized int held() {
        return held;
    }

    private void startWorker() {
        try {
            executor.execute(this::work);
        } catch (RejectedExecutionException stopping) {
            // the server is stopping: the pieces stay undone, their records unacknowledged
            synchronized (this) {
                workers--;
            }
        }
    }

    /** Takes one piece from the next ready lane at a time, so a busy lane does not starve the others. */
    private void work() {
        while (true) {
            Lane lane;
            Runnable piece;
            synchronized (this) {
                lane = ready.poll();
                if (lane == null) {
                    workers--;
                    return;
                }
                piece = lane.work.poll();
            }
            try {
                piece.run();
            } catch (RuntimeException | Error unexpected) {
                LOG.log(Level.SEVERE, "work of lane " + lane.name + " failed; its record stays unacknowledged", unexpected);
            } finally {
                CompletableFuture<Void> room = null;
                synchronized (this) {
                    held--;
                    if (lane.work.isEmpty()) {
                        lane.scheduled = false;
                        lanes.remove(lane.name);
                    } else {
                        ready.add(lane);
                    }
                    if (held < capacity) {
                        room = waitingForRoom.poll();
                    }
                }
                if (room != null) {
                    room.complete(null);
                }
            }
            if (Thread.currentThread().isInterrupted()) { // the server is stopping
                synchronized (this) {
                    workers--;
                }
                return;
            }
        }
    }

    private static final class Lane {
        final String name;
        final Queue<Runnable> work = new ArrayDeque<>();
        boolean scheduled;

        Lane(String name) {
            this.name = name;
        }
    }
}

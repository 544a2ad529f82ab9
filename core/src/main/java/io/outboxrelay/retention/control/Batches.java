package io.outboxrelay.retention.control;

import java.time.Duration;

/** Runs a batch deletion until a batch comes back short, pausing between batches. */
public final class Batches {

    @FunctionalInterface
    public interface Batch {
        int delete(int size) throws Exception;
    }

    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    @FunctionalInterface
    public interface Deleted {
        void deleted(int rows);
    }

    private Batches() {
    }

    /** Returns the rows deleted in all; stops early (keeping what is done) when interrupted. */
    public static long drain(Batch batch, int size, Duration pause, Pause pauser, Deleted report) throws Exception {
        long total = 0;
        while (true) {
            int deleted = batch.delete(size);
            if (deleted > 0) {
                report.deleted(deleted);
            }
            total += deleted;
            if (deleted < size) {
                return total;
            }
            pauser.pause(pause);
        }
    }
}

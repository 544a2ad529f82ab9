package io.outboxrelay.outbox.control;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CoalescingSignalTest {

    /** Runs what it was handed only when the test says so. */
    private static final class StepExecutor implements Executor {
        final Queue<Runnable> tasks = new ArrayDeque<>();
        boolean rejecting;

        @Override
        public void execute(Runnable task) {
            if (rejecting) {
                throw new RejectedExecutionException("shutting down");
            }
            tasks.add(task);
        }

        void runAll() {
            while (!tasks.isEmpty()) {
                tasks.remove().run();
            }
        }
    }

    private final StepExecutor executor = new StepExecutor();
    private final AtomicInteger runs = new AtomicInteger();

    @Test
    void raisesBeforeTheActionRunsShareOneRun() {
        CoalescingSignal signal = new CoalescingSignal(executor, runs::incrementAndGet);

        signal.raise();
        signal.raise();
        signal.raise();

        assertThat(executor.tasks).hasSize(1);
        executor.runAll();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aRaiseWhileTheActionRunsGetsARunOfItsOwnAfterIt() {
        CoalescingSignal[] signal = new CoalescingSignal[1];
        signal[0] = new CoalescingSignal(executor, () -> {
            if (runs.incrementAndGet() == 1) {
                signal[0].raise(); // a commit during the first notification
                signal[0].raise(); // and another: both see the second one
            }
        });

        signal[0].raise();
        executor.runAll();

        assertThat(runs).hasValue(2);
    }

    @Test
    void eachRaiseAfterARunEndedRunsAgain() {
        CoalescingSignal signal = new CoalescingSignal(executor, runs::incrementAndGet);

        signal.raise();
        executor.runAll();
        signal.raise();
        executor.runAll();

        assertThat(runs).hasValue(2);
    }

    @Test
    void aRejectedStartLeavesTheSignalUsable() {
        CoalescingSignal signal = new CoalescingSignal(executor, runs::incrementAndGet);
        executor.rejecting = true;

        assertThatThrownBy(signal::raise).isInstanceOf(RejectedExecutionException.class);

        executor.rejecting = false;
        signal.raise();
        executor.runAll();
        assertThat(runs).hasValue(1);
    }
}

package io.outboxrelay.consumer.control;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionLanesTest {

    private static final long DEADLINE_SECONDS = 30;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void theRecordsOfOnePartitionAreHandledInTheOrderTheyCame() throws Exception {
        PartitionLanes lanes = new PartitionLanes(4, 1000, threads);
        List<Integer> handled = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch all = new CountDownLatch(500);

        for (int i = 0; i < 500; i++) {
            int offset = i;
            lanes.submit("orders-0", () -> {
                handled.add(offset);
                all.countDown();
            });
        }

        assertThat(all.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(handled).isSorted().hasSize(500);
    }

    @Test
    void recordsOfDifferentPartitionsAreHandledAtTheSameTime() throws Exception {
        PartitionLanes lanes = new PartitionLanes(2, 10, threads);
        CountDownLatch bothStarted = new CountDownLatch(2);
        CountDownLatch bothMet = new CountDownLatch(2);
        Runnable meet = () -> {
            bothStarted.countDown();
            try {
                if (bothStarted.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                    bothMet.countDown();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        lanes.submit("orders-0", meet);
        lanes.submit("orders-1", meet);

        assertThat(bothMet.await(DEADLINE_SECONDS, TimeUnit.SECONDS))
                .as("each partition's record waited for the other's to start").isTrue();
    }

    @Test
    void noMoreThanTheConcurrencyRunAtOnceAndEveryRecordIsHandled() throws Exception {
        PartitionLanes lanes = new PartitionLanes(3, 1000, threads);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(600);

        for (int i = 0; i < 600; i++) {
            lanes.submit("orders-" + (i % 12), () -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                Thread.onSpinWait();
                running.decrementAndGet();
                all.countDown();
            });
        }

        assertThat(all.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(mostAtOnce.get()).isBetween(1, 3);
        // the last record has counted down, but its lane lets go of it only once it has returned
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (lanes.held() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(lanes.held()).isZero();
    }

    @Test
    void aFullBufferHoldsTheNextRecordBackUntilOneIsDone() throws Exception {
        PartitionLanes lanes = new PartitionLanes(1, 2, threads);
        CountDownLatch release = new CountDownLatch(1);
        Runnable stuck = () -> {
            try {
                release.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        CompletionStage<Void> first = lanes.submit("orders-0", stuck);
        CompletionStage<Void> second = lanes.submit("orders-0", () -> { });

        assertThat(first.toCompletableFuture()).isDone();
        assertThat(second.toCompletableFuture()).as("two held: the stream must wait").isNotDone();

        release.countDown();
        second.toCompletableFuture().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        assertThat(second.toCompletableFuture()).isDone();
    }

    @Test
    void aFailingPieceDoesNotStopTheLane() throws Exception {
        PartitionLanes lanes = new PartitionLanes(1, 10, threads);
        CountDownLatch next = new CountDownLatch(1);

        lanes.submit("orders-0", () -> {
            throw new IllegalStateException("handler bug");
        });
        lanes.submit("orders-0", next::countDown);

        assertThat(next.await(DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
}

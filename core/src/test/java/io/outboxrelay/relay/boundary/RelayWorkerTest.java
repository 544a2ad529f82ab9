package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.PublishSpans;
import io.outboxrelay.relay.control.RelayRound;
import io.outboxrelay.relay.control.RelayRound.Flight;
import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.RoundReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The pipelined drain against a scripted round: which batch is claimed when, and that none is left leased. */
class RelayWorkerTest {

    private static final int BATCH = 500;

    private static final Duration GATHER = Duration.ofMillis(5);

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    void aBacklogsNextBatchIsClaimedWhileTheBatchBeforeItWaitsForKafka() {
        ScriptedRound round = new ScriptedRound(List.of(BATCH, BATCH, 7));
        round.landingWaitsForLaunch(1, 2); // batch 1 can only land once batch 2 was claimed beside it

        worker(round, true).drain();

        assertThat(round.landedBatches).as("every claimed batch landed, in order").containsExactly(1, 2, 3);
        assertThat(round.overlapped).as("batch 2 was claimed while batch 1 was in flight").isTrue();
    }

    @Test
    void aBacklogOfFewerAggregatesThanTwoBatchesHoldGoesOnOnceEachBatchLanded() {
        // 0: the claim beside a batch finds every waiting aggregate held by that batch
        ScriptedRound round = new ScriptedRound(List.of(400, 0, 400, 0, 7));

        worker(round, true).drain();

        assertThat(round.landedBatches).as("the drain claimed again after each batch landed, not at the next poll")
                .containsExactly(1, 3, 5);
    }

    @Test
    void aTrickleIsClaimedOnlyAfterTheBatchBeforeItLanded() {
        ScriptedRound round = new ScriptedRound(List.of(3, 2, 1));

        worker(round, true).drain();

        assertThat(round.steps).as("nothing in flight beside a small batch")
                .containsExactly("launch 1", "land 1", "launch 2", "land 2", "launch 3", "land 3", "launch 4");
    }

    @Test
    void aBatchClaimedBesideOneWhoseRecordingFailedIsStillRecorded() {
        ScriptedRound round = new ScriptedRound(List.of(BATCH, BATCH));
        round.landingWaitsForLaunch(1, 2);
        round.failLanding(1);

        worker(round, true).drain();

        assertThat(round.landedBatches).as("batch 2's rows are not left leased until their lease runs out")
                .containsExactly(2);
        assertThat(round.launches).as("the drain stops at the failure; the next poll starts over").isEqualTo(2);
    }

    @Test
    void unpipelinedOneRoundRunsAtATime() {
        ScriptedRound round = new ScriptedRound(List.of(BATCH, BATCH, 7));

        worker(round, false).drain();

        assertThat(round.steps).containsExactly("launch 1", "land 1", "launch 2", "land 2", "launch 3", "land 3",
                "launch 4");
    }

    @Test
    void aDrainsRoundsShareOneSessionThatClosesWhenTheDrainEnds() {
        ScriptedRound round = new ScriptedRound(List.of(3, 2));

        workerNotingSessions(round).drain();

        assertThat(round.steps).as("every round of the drain ran inside the session, which closed after the last")
                .containsExactly("session opened", "launch 1", "land 1", "launch 2", "land 2", "launch 3", "session closed");
    }

    @Test
    void aDrainThatFailsStillGivesItsSessionBack() {
        ScriptedRound round = new ScriptedRound(List.of(3));
        round.failLanding(1);

        workerNotingSessions(round).drain();

        assertThat(round.steps).as("the session's connection goes back to the pool; the next drain takes another")
                .containsExactly("session opened", "launch 1", "land 1", "session closed");
    }

    @Test
    void withAGatheringTimeAStreamsNextClaimWaitsForWhatCommitsMeanwhile() {
        ScriptedRound round = new ScriptedRound(List.of(3, 2, 1));

        gatheringWorker(round, true).drain();

        assertThat(round.steps).as("each claim after a small batch comes the gathering time later")
                .containsExactly("launch 1", "land 1", "gather 5 ms", "launch 2", "land 2", "gather 5 ms", "launch 3",
                        "land 3", "gather 5 ms", "launch 4");
    }

    @Test
    void aBacklogIsNotHeldBackByTheGatheringTime() {
        ScriptedRound round = new ScriptedRound(List.of(BATCH, BATCH, 7));
        round.landingWaitsForLaunch(1, 2);

        gatheringWorker(round, true).drain();

        assertThat(round.steps.stream().filter(step -> step.startsWith("gather")))
                .as("only the small batch at the backlog's end is followed by the gathering time").hasSize(1);
        assertThat(round.steps).containsSubsequence("land 3", "gather 5 ms", "launch 4");
        assertThat(round.overlapped).as("the full batches still went one beside the other").isTrue();
    }

    @Test
    void unpipelinedTheGatheringTimeFollowsASmallBatchToo() {
        ScriptedRound round = new ScriptedRound(List.of(BATCH, 7));

        gatheringWorker(round, false).drain();

        assertThat(round.steps).containsExactly("launch 1", "land 1", "launch 2", "land 2", "gather 5 ms", "launch 3");
    }

    @Test
    void aStoppingWorkerDoesNotWaitOutItsGatheringTime() throws Exception {
        ScriptedRound round = new ScriptedRound(List.of(3, 2));
        RelayWorker worker = new RelayWorker("test#0", round, executor, () -> () -> { }, true, BATCH,
                Duration.ofHours(1));
        CompletableFuture<Void> drain = CompletableFuture.runAsync(worker::drain, executor);
        assertThat(round.firstLanding.await(10, TimeUnit.SECONDS)).as("the first batch landed").isTrue();

        worker.stop();

        drain.get(10, TimeUnit.SECONDS); // an hour's wait would fail this
        assertThat(round.steps).as("no claim after the stop").containsExactly("launch 1", "land 1");
    }

    private RelayWorker worker(RelayRound round, boolean pipelined) {
        return new RelayWorker("test#0", round, executor, () -> () -> { }, pipelined, BATCH, Duration.ZERO);
    }

    /** A worker whose gathering time is noted among the round's steps instead of waited out. */
    private RelayWorker gatheringWorker(ScriptedRound round, boolean pipelined) {
        return new RelayWorker("test#0", round, executor, () -> () -> { }, pipelined, BATCH, GATHER,
                time -> round.steps.add("gather " + time.toMillis() + " ms"));
    }

    private RelayWorker workerNotingSessions(ScriptedRound round) {
        return new RelayWorker("test#0", round, executor, () -> {
            round.steps.add("session opened");
            return () -> round.steps.add("session closed");
        }, true, BATCH, Duration.ZERO);
    }

    /** Hands out batches of the given sizes (0: nothing this time), then nothing; records what was launched and landed. */
    private static final class ScriptedRound extends RelayRound {

        private static final ClaimedEvent EVENT = new ClaimedEvent(1, UUID.randomUUID(), "Order", "1", "OrderPlaced",
                1, "orders", "{}", Map.of(), 0, null, null);

        private final Deque<Integer> sizes;
        private final Map<Flight, Integer> numbers = Collections.synchronizedMap(new IdentityHashMap<>());
        final List<String> steps = new CopyOnWriteArrayList<>();
        final List<Integer> landedBatches = new CopyOnWriteArrayList<>();
        volatile int launches;
        volatile boolean overlapped;
        final CountDownLatch firstLanding = new CountDownLatch(1);
        private int waitingBatch = -1;
        private CountDownLatch launched = new CountDownLatch(0);
        private int failingBatch = -1;

        ScriptedRound(List<Integer> sizes) {
            this.sizes = new ArrayDeque<>(sizes);
        }

        void landingWaitsForLaunch(int batch, int launch) {
            waitingBatch = batch;
            launched = new CountDownLatch(launch);
        }

        void failLanding(int batch) {
            failingBatch = batch;
        }

        @Override
        public synchronized Optional<Flight> launch(String owner) {
            int number = ++launches;
            steps.add("launch " + number);
            launched.countDown();
            Integer size = sizes.poll();
            if (size == null || size == 0) {
                return Optional.empty();
            }
            Flight flight = new Flight(owner, RoundReport.Path.CLAIM, Collections.nCopies(size, EVENT), null,
                    PublishSpans.NONE, System.nanoTime());
            numbers.put(flight, number);
            return Optional.of(flight);
        }

        @Override
        public int land(Flight flight) throws SQLException, InterruptedException {
            int number = numbers.get(flight);
            if (number == waitingBatch) {
                overlapped = launched.await(10, TimeUnit.SECONDS);
            }
            steps.add("land " + number);
            if (number == failingBatch) {
                throw new SQLException("the database went away");
            }
            landedBatches.add(number);
            firstLanding.countDown();
            return flight.claimed().size();
        }
    }
}

package io.outboxrelay.retention.control;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BatchesTest {

    @Test
    void deletesBatchAfterBatchWithAPauseBetweenUntilABatchComesBackShort() throws Exception {
        Deque<Integer> answers = new ArrayDeque<>(List.of(3, 3, 1));
        List<Integer> sizesAsked = new ArrayList<>();
        List<Duration> pauses = new ArrayList<>();
        List<Integer> reported = new ArrayList<>();

        long total = Batches.drain(size -> {
            sizesAsked.add(size);
            return answers.pop();
        }, 3, Duration.ofMillis(100), pauses::add, reported::add);

        assertThat(total).isEqualTo(7);
        assertThat(sizesAsked).containsExactly(3, 3, 3);
        assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100));
        assertThat(reported).containsExactly(3, 3, 1);
    }

    @Test
    void nothingToDeleteIsOneQueryAndNoReport() throws Exception {
        List<Integer> reported = new ArrayList<>();
        List<Duration> pauses = new ArrayList<>();

        long total = Batches.drain(size -> 0, 1000, Duration.ofMillis(100), pauses::add, reported::add);

        assertThat(total).isZero();
        assertThat(pauses).isEmpty();
        assertThat(reported).isEmpty();
    }
}

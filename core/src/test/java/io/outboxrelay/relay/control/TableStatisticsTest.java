package io.outboxrelay.relay.control;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TableStatisticsTest {

    @Test
    void aQueueNeverAnalyzedIsAnalyzedAsSoonAsItHoldsARow() {
        assertThat(TableStatistics.isStale(1, -1)).isTrue();
        assertThat(TableStatistics.isStale(3_000, -1)).isTrue();
        assertThat(TableStatistics.isStale(0, -1)).as("nothing to learn from an empty queue").isFalse();
    }

    @Test
    void anAnalyzedQueueIsAnalyzedAgainOnlyOnceItGrewPastTwiceItsSizeAndByTenThousandRows() {
        assertThat(TableStatistics.isStale(5_000, 0)).as("a steady stream's small queue").isFalse();
        assertThat(TableStatistics.isStale(10_001, 0)).isTrue();
        assertThat(TableStatistics.isStale(12_000, 1_000)).isTrue();
        assertThat(TableStatistics.isStale(150_000, 100_000)).as("grown by half: the plan still holds").isFalse();
        assertThat(TableStatistics.isStale(50, 200_000)).as("a shrinking queue is left alone").isFalse();
    }

    @Test
    void theQueueIsVacuumedOnceTwentyThousandRowsDiedWhileABacklogStillWaits() {
        assertThat(TableStatistics.needsVacuum(500_000, 20_000)).as("a drain under way").isTrue();
        assertThat(TableStatistics.needsVacuum(500_000, 19_999)).as("too few dead rows to pay for a vacuum").isFalse();
        assertThat(TableStatistics.needsVacuum(0, 0)).isFalse();
    }

    @Test
    void aQueueWithoutABacklogIsVacuumedOnceFiveThousandRowsDied() {
        assertThat(TableStatistics.needsVacuum(40, 5_000)).as("a steady stream: few waiting, many published").isTrue();
        assertThat(TableStatistics.needsVacuum(19_999, 80_000)).as("the end of a backlog").isTrue();
        assertThat(TableStatistics.needsVacuum(40, 4_999)).as("too few dead rows to pay for a vacuum").isFalse();
    }

    @Test
    void theQueuesIndexesAreRebuiltOnceADrainedBacklogLeftThemLarge() {
        long mib = 1024 * 1024;
        assertThat(TableStatistics.needsRebuild(0, 85 * mib)).as("1,000,000 events drained, none waiting").isTrue();
        assertThat(TableStatistics.needsRebuild(40, 16 * mib)).as("a steady stream after a backlog").isTrue();
        assertThat(TableStatistics.needsRebuild(0, 15 * mib)).as("too small to slow a vacuum down").isFalse();
        assertThat(TableStatistics.needsRebuild(1_000_000, 85 * mib)).as("a backlog still waiting needs its entries")
                .isFalse();
        assertThat(TableStatistics.needsRebuild(5_000, 85 * mib)).as("5,000 waiting need a fraction of it").isTrue();
        assertThat(TableStatistics.needsRebuild(-1, 85 * mib)).as("no count yet (a negative estimate)").isTrue();
    }
}

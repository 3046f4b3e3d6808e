package io.fleetlake.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {
    @Test
    void nearestRankOfOneToHundredIsTheRankItself() {
        long[] values = LongStream.rangeClosed(1, 100).toArray();

        LatencySummary summary = Percentiles.summarize(values);

        assertThat(summary).isEqualTo(new LatencySummary(100, 50, 95, 99, 100));
    }

    @Test
    void reportsOnlyObservedValuesWithoutInterpolation() {
        long[] values = {10, 20, 30, 40};

        assertThat(Percentiles.nearestRank(values, 50)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(values, 51)).isEqualTo(30);
        assertThat(Percentiles.nearestRank(values, 95)).isEqualTo(40);
        assertThat(Percentiles.nearestRank(values, 1)).isEqualTo(10);
    }

    @Test
    void sortsAnUnorderedSampleWithoutModifyingIt() {
        long[] values = {900, 5, 300, 7, 1_000, 42};

        LatencySummary summary = Percentiles.summarize(values);

        assertThat(summary.p50()).isEqualTo(42);
        assertThat(summary.p95()).isEqualTo(1_000);
        assertThat(summary.max()).isEqualTo(1_000);
        assertThat(summary.count()).isEqualTo(6);
        assertThat(values).containsExactly(900, 5, 300, 7, 1_000, 42);
    }

    @Test
    void aSingleObservationIsEveryPercentile() {
        assertThat(Percentiles.summarize(new long[] {250})).isEqualTo(new LatencySummary(1, 250, 250, 250, 250));
    }

    @Test
    void tailPercentilesOfAThousandValues() {
        long[] values = LongStream.range(0, 1_000).map(index -> 999 - index).toArray();

        LatencySummary summary = Percentiles.summarize(values);

        assertThat(summary.p50()).isEqualTo(499);
        assertThat(summary.p95()).isEqualTo(949);
        assertThat(summary.p99()).isEqualTo(989);
        assertThat(summary.max()).isEqualTo(999);
    }

    @Test
    void rejectsAnEmptySampleAndPercentilesOutOfRange() {
        assertThatThrownBy(() -> Percentiles.summarize(new long[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Percentiles.nearestRank(new long[] {1}, 100.5))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void summaryRejectsDecreasingPercentiles() {
        assertThatThrownBy(() -> new LatencySummary(3, 10, 5, 20, 30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not decrease");
    }
}

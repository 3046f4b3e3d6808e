package io.fleetlake.bench.stats;

import java.util.Arrays;

/**
 * Nearest-rank percentiles: the p-th percentile of n values is the smallest value such that at least p % of the values
 * are less than or equal to it, i.e. the value at rank {@code ceil(p / 100 × n)} of the sorted values. No
 * interpolation, so every reported figure is a latency that was actually observed.
 */
public final class Percentiles {
    private Percentiles() {}

    /**
     * @param values the sample, in any order; not modified
     * @throws IllegalArgumentException when the sample is empty
     */
    public static LatencySummary summarize(long[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("Cannot summarise an empty sample");
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return new LatencySummary(
                sorted.length,
                nearestRank(sorted, 50),
                nearestRank(sorted, 95),
                nearestRank(sorted, 99),
                sorted[sorted.length - 1]);
    }

    /**
     * @param sorted values in ascending order, at least one
     * @param percentile between 0 (exclusive) and 100 (inclusive)
     */
    public static long nearestRank(long[] sorted, double percentile) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("No values");
        }
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("A percentile must be above 0 and at most 100, got " + percentile);
        }
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}

package io.fleetlake.bench.stats;

/**
 * Percentiles of one latency sample, in milliseconds.
 *
 * @param count how many latencies were observed
 */
public record LatencySummary(int count, long p50, long p95, long p99, long max) {
    public LatencySummary {
        if (count < 1) {
            throw new IllegalArgumentException("A summary needs at least one observation, got " + count);
        }
        if (p50 > p95 || p95 > p99 || p99 > max) {
            throw new IllegalArgumentException(
                    "Percentiles must not decrease: p50 " + p50 + ", p95 " + p95 + ", p99 " + p99 + ", max " + max);
        }
    }
}

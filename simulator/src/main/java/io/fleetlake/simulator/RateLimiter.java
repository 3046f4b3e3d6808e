package io.fleetlake.simulator;

import java.time.Duration;

/**
 * Spaces permits {@code 1 / rate} apart. It only computes times; the caller waits (without spinning) until the granted
 * time.
 *
 * <p>Permits are spaced on the granted times, not on the times the caller actually got to use them, so a caller that
 * wakes up a little late (timer slack, a busy machine) still reaches the full rate. Lateness is forgiven only up to
 * {@link #CATCH_UP}: after a longer stall the caller may catch up at most that much (at 3,000 permits/s, a burst of
 * 300), then the spacing resumes. The rate is therefore a maximum over any window longer than {@link #CATCH_UP}.
 * Not thread-safe.
 */
final class RateLimiter {
    static final Duration CATCH_UP = Duration.ofMillis(100);

    private final long spacingNanos;
    private long nextFreeNanos = Long.MIN_VALUE;

    private RateLimiter(long spacingNanos) {
        this.spacingNanos = spacingNanos;
    }

    /** No limit: every permit is granted at the earliest time asked for. */
    static RateLimiter unlimited() {
        return new RateLimiter(0);
    }

    static RateLimiter perSecond(double permitsPerSecond) {
        if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
            throw new IllegalArgumentException("A rate must be positive and finite, got " + permitsPerSecond);
        }
        return new RateLimiter(Math.max(1, Math.round(1e9 / permitsPerSecond)));
    }

    /** A limiter for a configured rate, where 0 means no limit. */
    static RateLimiter forRate(double permitsPerSecond) {
        return permitsPerSecond == 0 ? unlimited() : perSecond(permitsPerSecond);
    }

    long spacingNanos() {
        return spacingNanos;
    }

    /**
     * Grants the next permit.
     *
     * @param earliestNanos the permit is not wanted before this time
     * @param nowNanos the current time, on the same clock
     * @return the time from which the permit may be used: never before {@code earliestNanos}, at least the spacing
     *     after the previous grant, and at most {@link #CATCH_UP} in the past when the previous grant was not used
     *     for longer than that
     */
    long grant(long earliestNanos, long nowNanos) {
        if (spacingNanos == 0) {
            return earliestNanos;
        }
        long granted = Math.max(earliestNanos, nextFreeNanos);
        nextFreeNanos = Math.max(granted, nowNanos - CATCH_UP.toNanos()) + spacingNanos;
        return granted;
    }
}

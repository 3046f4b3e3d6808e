package io.fleetlake.bench.stats;

/**
 * Paces sends at a fixed offered rate: send {@code n} is due {@code n / rate} after the first one. The schedule is kept
 * on the due times, not on when a send actually happened, so a sender that wakes up a little late still offers the
 * full rate; after a stall longer than {@link #MAXIMUM_CATCH_UP_NANOS} it catches up at most that much at once (a
 * burst would measure the burst, not the offered load). Only computes times; the caller parks until them. Not
 * thread-safe.
 */
public final class RatePacer {
    /** 100 ms: at 2,000 messages/s a burst of at most 200 after a stall. */
    public static final long MAXIMUM_CATCH_UP_NANOS = 100_000_000L;

    private final long spacingNanos;
    private long nextDueNanos;
    private boolean started;

    private RatePacer(long spacingNanos) {
        this.spacingNanos = spacingNanos;
    }

    /** @param messagesPerSecond positive and finite */
    public static RatePacer perSecond(double messagesPerSecond) {
        if (!(messagesPerSecond > 0) || Double.isInfinite(messagesPerSecond)) {
            throw new IllegalArgumentException("A rate must be positive and finite, got " + messagesPerSecond);
        }
        return new RatePacer(Math.max(1, Math.round(1e9 / messagesPerSecond)));
    }

    public long spacingNanos() {
        return spacingNanos;
    }

    /**
     * The time the next send is due, on the caller's nanosecond clock; the first send is due at once.
     *
     * @param nowNanos the current time on the same clock
     */
    public long nextDue(long nowNanos) {
        if (!started) {
            started = true;
            nextDueNanos = nowNanos;
        }
        long due = Math.max(nextDueNanos, nowNanos - MAXIMUM_CATCH_UP_NANOS);
        nextDueNanos = due + spacingNanos;
        return due;
    }
}

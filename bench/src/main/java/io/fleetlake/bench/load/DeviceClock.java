package io.fleetlake.bench.load;

/**
 * Event times for fixes sent now: the wall clock in milliseconds, but strictly after the vehicle's previous fix, so
 * that two fixes of one vehicle never share an event time (the pipeline would take the second for a resend).
 * Thread-safe.
 */
public final class DeviceClock {
    private final long[] lastEventTime;

    public DeviceClock(int vehicles) {
        this.lastEventTime = new long[vehicles];
    }

    /** The event time of a fix the vehicle takes now. */
    public synchronized long next(int vehicleIndex, long nowMillis) {
        long eventTime = Math.max(nowMillis, lastEventTime[vehicleIndex] + 1);
        lastEventTime[vehicleIndex] = eventTime;
        return eventTime;
    }
}

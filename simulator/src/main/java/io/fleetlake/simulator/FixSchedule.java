package io.fleetlake.simulator;

import java.time.Duration;

/**
 * When each fix is due. Fixes are numbered from 0 in the order they are due: fix {@code n} belongs to vehicle
 * {@code n mod vehicles}, and the vehicles' fixes are spread evenly over the fix interval, so the fleet sends one
 * message every {@code fixInterval / vehicles} instead of all vehicles at once.
 */
final class FixSchedule {
    private final int vehicles;
    private final long intervalNanos;

    FixSchedule(int vehicles, Duration fixInterval) {
        if (vehicles < 1) {
            throw new IllegalArgumentException("A schedule needs at least one vehicle, got " + vehicles);
        }
        if (fixInterval.isNegative() || fixInterval.isZero()) {
            throw new IllegalArgumentException("The fix interval must be positive, got " + fixInterval);
        }
        this.vehicles = vehicles;
        this.intervalNanos = fixInterval.toNanos();
    }

    int vehicleIndex(long sequence) {
        return (int) (sequence % vehicles);
    }

    /** Nanoseconds from the start of the schedule at which fix {@code sequence} is due. */
    long dueNanos(long sequence) {
        long round = sequence / vehicles;
        long slot = sequence % vehicles;
        return round * intervalNanos + slot * intervalNanos / vehicles;
    }
}

package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A time during which a vehicle's device has no connection (for example in an underground garage). It keeps taking
 * fixes into a buffer and sends the whole buffer, oldest first, at its first fix after the outage.
 *
 * @param start when the connection drops
 * @param end when it is back (exclusive)
 */
public record GarageOutage(Instant start, Instant end) {
    public GarageOutage {
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("A garage outage must end after it starts: " + start + " to " + end);
        }
    }

    public boolean contains(Instant time) {
        return contains(time.toEpochMilli());
    }

    boolean contains(long millis) {
        return millis >= start.toEpochMilli() && millis < end.toEpochMilli();
    }
}

package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A detour: for a few minutes the vehicle drives off its planned path and then rejoins it, at the time its plan has it
 * there. The vehicle is displaced towards a fixed bearing; the displacement grows smoothly over the first third of the
 * detour, holds at {@code offsetMeters} over the middle third and shrinks back to zero over the last third, so speeds
 * and headings stay continuous.
 *
 * @param start when the vehicle leaves the path
 * @param end when it is back on the path
 * @param bearingDegrees direction of the displacement, across the path at the start
 * @param offsetMeters how far from the path the vehicle drives in the middle third
 */
public record Deviation(Instant start, Instant end, double bearingDegrees, double offsetMeters) {
    public Deviation {
        requireNonNull(start, "start is null");
        requireNonNull(end, "end is null");
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("A deviation must end after it starts: " + start + " to " + end);
        }
        if (!Double.isFinite(bearingDegrees)) {
            throw new IllegalArgumentException("The bearing of a deviation must be finite, got " + bearingDegrees);
        }
        if (!(offsetMeters > 0) || Double.isInfinite(offsetMeters)) {
            throw new IllegalArgumentException("The offset of a deviation must be positive, got " + offsetMeters);
        }
    }

    /** How far the vehicle is displaced at a time; zero outside the deviation. */
    public double offsetMetersAt(Instant time) {
        return offsetMetersAt(time.toEpochMilli());
    }

    boolean covers(long millis) {
        return millis >= start.toEpochMilli() && millis < end.toEpochMilli();
    }

    double offsetMetersAt(long millis) {
        if (!covers(millis)) {
            return 0;
        }
        double fraction = (double) (millis - start.toEpochMilli()) / (end.toEpochMilli() - start.toEpochMilli());
        double edge = Math.min(fraction, 1 - fraction);
        if (edge >= 1.0 / 3) {
            return offsetMeters;
        }
        return offsetMeters * (1 - Math.cos(3 * Math.PI * edge)) / 2;
    }
}

package io.fleetlake.operations.backfill;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** One vehicle-minute of {@code fleet.vehicle_minutes} that must be recomputed. */
public record AffectedWindow(String vehicleId, Instant windowStart) implements Comparable<AffectedWindow> {
    public AffectedWindow {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(windowStart, "windowStart is null");
        if (!windowStart.truncatedTo(ChronoUnit.MINUTES).equals(windowStart)) {
            throw new IllegalArgumentException("Window start " + windowStart + " is not at a whole minute");
        }
    }

    /** The window holding an event time: windows are one minute long and aligned to the epoch, as the pipeline's. */
    public static AffectedWindow containing(String vehicleId, Instant eventTime) {
        return new AffectedWindow(vehicleId, eventTime.truncatedTo(ChronoUnit.MINUTES));
    }

    public Instant windowEnd() {
        return windowStart.plus(1, ChronoUnit.MINUTES);
    }

    @Override
    public int compareTo(AffectedWindow other) {
        int byVehicle = vehicleId.compareTo(other.vehicleId);
        return byVehicle != 0 ? byVehicle : windowStart.compareTo(other.windowStart);
    }
}

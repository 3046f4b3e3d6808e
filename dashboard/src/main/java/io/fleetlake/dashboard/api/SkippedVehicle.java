package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

/**
 * A vehicle left out of a response because its stored state could not be read; listed so that the page can say so
 * instead of silently showing fewer vehicles.
 *
 * @param vehicleId the vehicle
 * @param reason what is wrong with its state
 */
public record SkippedVehicle(String vehicleId, String reason) {
    public SkippedVehicle {
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(reason, "reason is null");
    }
}

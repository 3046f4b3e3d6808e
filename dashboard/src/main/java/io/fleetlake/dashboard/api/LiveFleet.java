package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.vehicle.VehicleView;
import java.time.Instant;
import java.util.List;

/**
 * The fleet as Redis holds it at one moment.
 *
 * @param asOf the server time of the read; staleness is measured from it
 * @param vehicles every readable vehicle, by vehicle id
 * @param skippedVehicles vehicles of the last-seen set whose hash is gone or unreadable
 */
record LiveFleet(Instant asOf, List<VehicleView> vehicles, List<SkippedVehicle> skippedVehicles) {
    LiveFleet {
        requireNonNull(asOf, "asOf is null");
        vehicles = List.copyOf(requireNonNull(vehicles, "vehicles is null"));
        skippedVehicles = List.copyOf(requireNonNull(skippedVehicles, "skippedVehicles is null"));
    }
}

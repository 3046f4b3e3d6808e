package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.vehicle.VehicleView;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/vehicles}.
 *
 * @param mode always {@code live}
 * @param asOf server time of the read
 * @param staleAfterSeconds a vehicle is stale when its newest fix is older than this
 * @param vehicles every vehicle, by vehicle id
 * @param skippedVehicles vehicles left out because their state is unreadable (normally none)
 */
record VehiclesReply(
        String mode,
        Instant asOf,
        long staleAfterSeconds,
        List<VehicleView> vehicles,
        List<SkippedVehicle> skippedVehicles) {
    static final String LIVE = "live";

    VehiclesReply {
        requireNonNull(mode, "mode is null");
        requireNonNull(asOf, "asOf is null");
        vehicles = List.copyOf(requireNonNull(vehicles, "vehicles is null"));
        skippedVehicles = List.copyOf(requireNonNull(skippedVehicles, "skippedVehicles is null"));
    }
}

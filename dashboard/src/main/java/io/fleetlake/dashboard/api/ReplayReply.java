package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.vehicle.VehicleView;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /api/replay}: the fleet as it was at an instant, from the Iceberg history.
 *
 * @param mode always {@code replay}
 * @param at the replayed instant (millisecond precision)
 * @param snapshot the snapshot read, as a string (ids exceed JavaScript's exact integers), or null for the current
 *     table
 * @param asOf server time of the query
 * @param scannedFrom the oldest event time considered (exclusive): vehicles silent since then are missing
 * @param staleAfterSeconds a vehicle is stale when its newest fix is older than this before {@code at}
 * @param vehicles each vehicle's newest position at {@code at}, by vehicle id
 * @param skippedVehicles vehicles left out because their row is unreadable (normally none)
 */
record ReplayReply(
        String mode,
        Instant at,
        String snapshot,
        Instant asOf,
        Instant scannedFrom,
        long staleAfterSeconds,
        List<VehicleView> vehicles,
        List<SkippedVehicle> skippedVehicles) {
    static final String REPLAY = "replay";

    ReplayReply {
        requireNonNull(mode, "mode is null");
        requireNonNull(at, "at is null");
        requireNonNull(asOf, "asOf is null");
        requireNonNull(scannedFrom, "scannedFrom is null");
        vehicles = List.copyOf(requireNonNull(vehicles, "vehicles is null"));
        skippedVehicles = List.copyOf(requireNonNull(skippedVehicles, "skippedVehicles is null"));
    }
}

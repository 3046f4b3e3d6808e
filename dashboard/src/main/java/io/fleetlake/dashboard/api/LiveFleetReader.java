package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import io.fleetlake.dashboard.redis.CurrentStateReader;
import io.fleetlake.dashboard.vehicle.UnreadableVehicleException;
import io.fleetlake.dashboard.vehicle.VehicleHashMapper;
import io.fleetlake.dashboard.vehicle.VehicleView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the live fleet from Redis and maps each hash, marking vehicles not heard from within the stale threshold. */
final class LiveFleetReader {
    private static final Logger LOG = LoggerFactory.getLogger(LiveFleetReader.class);

    private final CurrentStateReader currentState;
    private final Clock clock;
    private final Duration staleAfter;

    LiveFleetReader(CurrentStateReader currentState, Clock clock, Duration staleAfter) {
        this.currentState = requireNonNull(currentState, "currentState is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
    }

    LiveFleet fleet() {
        Map<String, Map<String, String>> hashes = currentState.fleet();
        Instant asOf = now();
        Instant staleBefore = asOf.minus(staleAfter);
        List<VehicleView> vehicles = new ArrayList<>(hashes.size());
        List<SkippedVehicle> skipped = new ArrayList<>();
        hashes.forEach((vehicleId, hash) -> {
            if (hash.isEmpty()) {
                skipped.add(new SkippedVehicle(vehicleId, "listed in the last-seen set, but its hash is gone"));
                return;
            }
            try {
                vehicles.add(VehicleHashMapper.toVehicle(vehicleId, hash, staleBefore));
            } catch (UnreadableVehicleException e) {
                skipped.add(new SkippedVehicle(vehicleId, e.getMessage()));
            }
        });
        if (!skipped.isEmpty()) {
            LOG.warn("Left out {} vehicles with unreadable state, first: {}", skipped.size(), skipped.get(0));
        }
        vehicles.sort(Comparator.comparing(VehicleView::vehicleId));
        return new LiveFleet(asOf, vehicles, skipped);
    }

    /** @throws DashboardException VEHICLE_NOT_FOUND or UNREADABLE_VEHICLE_STATE */
    VehicleView vehicle(String vehicleId) {
        Map<String, String> hash = currentState.vehicle(vehicleId);
        if (hash.isEmpty()) {
            throw new DashboardException(
                    DashboardError.VEHICLE_NOT_FOUND,
                    "Vehicle " + vehicleId + " has no current state: Redis has never received a position for it");
        }
        try {
            return VehicleHashMapper.toVehicle(vehicleId, hash, now().minus(staleAfter));
        } catch (UnreadableVehicleException e) {
            throw new DashboardException(DashboardError.UNREADABLE_VEHICLE_STATE, e.getMessage(), e);
        }
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}

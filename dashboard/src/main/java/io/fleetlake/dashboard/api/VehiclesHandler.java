package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.http.Reply;
import io.fleetlake.http.RouteRequest;
import java.time.Duration;

/** {@code GET /api/vehicles} and {@code GET /api/vehicles/{id}}: the live fleet from Redis. */
final class VehiclesHandler {
    private final LiveFleetReader fleet;
    private final Duration staleAfter;

    VehiclesHandler(LiveFleetReader fleet, Duration staleAfter) {
        this.fleet = requireNonNull(fleet, "fleet is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
    }

    Reply vehicles(RouteRequest request) {
        LiveFleet live = fleet.fleet();
        return Reply.json(new VehiclesReply(
                VehiclesReply.LIVE, live.asOf(), staleAfter.toSeconds(), live.vehicles(), live.skippedVehicles()));
    }

    Reply vehicle(RouteRequest request) {
        return Reply.json(fleet.vehicle(request.pathVariable("id")));
    }
}

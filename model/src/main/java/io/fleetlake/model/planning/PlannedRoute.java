package io.fleetlake.model.planning;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/**
 * The route the planning system assigned to a vehicle: its stops in delivery order and the path it is expected to
 * drive. A new assignment gets a new {@code routeId}.
 *
 * @param updatedAt when the planning system last changed this route
 * @param stops in delivery order; may be empty
 * @param path the expected road path from the first to the last point, at least two points
 */
public record PlannedRoute(
        String routeId, String vehicleId, Instant updatedAt, List<PlannedStop> stops, List<RoutePoint> path)
        implements Serializable {
    public PlannedRoute {
        requireNonNull(routeId, "routeId is null");
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(updatedAt, "updatedAt is null");
        stops = List.copyOf(requireNonNull(stops, "stops is null"));
        path = List.copyOf(requireNonNull(path, "path is null"));
        if (path.size() < 2) {
            throw new IllegalArgumentException("Route " + routeId + " needs a path of at least two points");
        }
    }
}

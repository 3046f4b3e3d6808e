package io.fleetlake.simulator.model;

import static java.util.Objects.requireNonNull;

import io.fleetlake.simulator.geo.GeoPoint;
import java.time.Instant;
import java.util.List;

/**
 * The plan of one trip of one vehicle: where it stops, in order, and the path it drives between the stops. This is
 * what a planning system knows about a vehicle; what the vehicle actually does over time is its {@link Trip}.
 *
 * @param routeId unique per vehicle and trip: {@code <vehicle>-<yyyyMMdd>-<n>}, the n-th trip that departs on that UTC
 *     day
 * @param vehicleId the vehicle that drives the route
 * @param departure when the vehicle leaves the first stop
 * @param stops at least two, in driving order; the first is the departure
 * @param path the planned driving path from the first stop to the last, through every stop
 */
public record Route(String routeId, String vehicleId, Instant departure, List<Stop> stops, List<GeoPoint> path) {
    public Route {
        requireNonNull(routeId, "routeId is null");
        requireNonNull(vehicleId, "vehicleId is null");
        requireNonNull(departure, "departure is null");
        requireNonNull(stops, "stops is null");
        requireNonNull(path, "path is null");
        stops = List.copyOf(stops);
        path = List.copyOf(path);
        if (stops.size() < 2) {
            throw new IllegalArgumentException("Route " + routeId + " needs at least two stops, got " + stops.size());
        }
        if (path.size() < 2
                || !path.get(0).equals(stops.get(0).location())
                || !path.get(path.size() - 1).equals(stops.get(stops.size() - 1).location())) {
            throw new IllegalArgumentException(
                    "The path of route " + routeId + " must run from its first stop to its last stop");
        }
    }

    public Stop origin() {
        return stops.get(0);
    }

    public Stop destination() {
        return stops.get(stops.size() - 1);
    }
}

package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import io.fleetlake.simulator.geo.GeoPoint;
import io.fleetlake.simulator.model.FleetModel;
import io.fleetlake.simulator.model.FleetPatterns;
import io.fleetlake.simulator.model.Route;
import io.fleetlake.simulator.model.Stop;
import io.fleetlake.simulator.model.Vehicle;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The current route of every vehicle: the route the simulator drives (same seed, fleet size, delivery stop duration and
 * day), unless one was assigned through the API, which then replaces it for that vehicle. Assigned routes are kept in
 * memory only: a restart forgets them. Routes may be assigned to vehicles outside the simulated fleet too (for example
 * a test's hand-made vehicles). Thread-safe.
 *
 * <p>A simulated route is the trip under way at the time of the request: route id {@code <vehicle>-<yyyyMMdd>-<n>}
 * (the n-th trip departing that UTC day), updated at its departure, its stops after the departure in driving order
 * with ids {@code <route id>-S<i>} (i from 1), and its planned path from the departure through every stop. Coordinates
 * are rounded to 6 decimals, as the devices round theirs, so a vehicle halted at a stop reports the stop's coordinates.
 */
public final class RouteDirectory {
    private final FleetModel model;
    private final Clock clock;
    private final ConcurrentMap<String, PlannedRoute> assigned = new ConcurrentHashMap<>();

    public RouteDirectory(FleetModel model, Clock clock) {
        this.model = requireNonNull(model, "model is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * The directory of the fleet a simulator with the same keys, started on the same UTC day, drives; its journeys are
     * planned up to now, so that the first request does not wait for them.
     */
    public static RouteDirectory forFleet(PlanningApiConfig config, Clock clock) {
        Instant now = clock.instant();
        // Device formats and incidents do not change routes: a fleet without them has the same routes.
        FleetModel model = new FleetModel(
                config.seed(),
                config.vehicles(),
                0,
                FleetPatterns.noIncidents(config.deliveryStopDuration()),
                FleetModel.startOfDay(now));
        model.vehicles().forEach(vehicle -> model.route(vehicle, now));
        return new RouteDirectory(model, clock);
    }

    /** Every vehicle's current route: the simulated fleet in vehicle order, then other vehicles by id. */
    public List<PlannedRoute> currentRoutes() {
        Instant now = clock.instant();
        List<PlannedRoute> routes = new ArrayList<>(model.vehicles().size());
        for (Vehicle vehicle : model.vehicles()) {
            PlannedRoute route = assigned.get(vehicle.vehicleId());
            routes.add(route != null ? route : plannedRoute(model.route(vehicle, now)));
        }
        assigned.values().stream()
                .filter(route -> model.vehicle(route.vehicleId()).isEmpty())
                .sorted(Comparator.comparing(PlannedRoute::vehicleId))
                .forEach(routes::add);
        return routes;
    }

    /** The vehicle's current route; empty when it is not simulated and none was assigned. */
    public Optional<PlannedRoute> currentRoute(String vehicleId) {
        requireNonNull(vehicleId, "vehicleId is null");
        PlannedRoute route = assigned.get(vehicleId);
        if (route != null) {
            return Optional.of(route);
        }
        return model.vehicle(vehicleId).map(vehicle -> plannedRoute(model.route(vehicle, clock.instant())));
    }

    /** Assigns a route to its vehicle, replacing the simulated one or an earlier assignment. */
    public void assign(PlannedRoute route) {
        requireNonNull(route, "route is null");
        assigned.put(route.vehicleId(), route);
    }

    /** The number of simulated vehicles, {@code VH-0001} onwards. */
    public int fleetSize() {
        return model.vehicles().size();
    }

    /** The planning system's view of a simulated route. */
    static PlannedRoute plannedRoute(Route route) {
        List<PlannedStop> stops = new ArrayList<>(route.stops().size() - 1);
        for (int index = 1; index < route.stops().size(); index++) {
            Stop stop = route.stops().get(index);
            stops.add(new PlannedStop(
                    route.routeId() + "-S" + index,
                    stop.name(),
                    round(stop.location().latitude()),
                    round(stop.location().longitude())));
        }
        List<RoutePoint> path = new ArrayList<>(route.path().size());
        for (GeoPoint point : route.path()) {
            path.add(new RoutePoint(round(point.latitude()), round(point.longitude())));
        }
        return new PlannedRoute(route.routeId(), route.vehicleId(), route.departure(), stops, path);
    }

    private static double round(double degrees) {
        return Math.round(degrees * 1e6) / 1e6;
    }
}

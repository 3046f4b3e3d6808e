package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.JsonResponse;
import io.fleetlake.http.RouteRequest;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.PlanningApi;
import io.fleetlake.model.planning.RouteJson;
import io.fleetlake.model.planning.RoutePoint;

/** The planning API's handlers: stateless translations between HTTP requests and a {@link RouteDirectory}. */
final class PlanningHandlers {
    static final String VEHICLE_ID = "vehicle_id";
    private static final String HEALTHY = "{\"status\":\"UP\"}";

    private final RouteDirectory directory;

    PlanningHandlers(RouteDirectory directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** {@code GET /v1/routes}: every vehicle's current route. */
    JsonResponse routes(RouteRequest request) {
        return JsonResponse.ok(RouteJson.writeAll(directory.currentRoutes()));
    }

    /** {@code GET /v1/vehicles/{vehicle_id}/route}: one vehicle's current route, or 404. */
    JsonResponse vehicleRoute(RouteRequest request) {
        String vehicleId = request.pathVariable(VEHICLE_ID);
        PlannedRoute route = directory
                .currentRoute(vehicleId)
                .orElseThrow(() -> new PlanningApiException(
                        ApiError.NOT_FOUND,
                        "Vehicle " + vehicleId + " has no route: it is not one of the " + directory.fleetSize()
                                + " simulated vehicles and none was assigned with PUT "
                                + PlanningApi.vehicleRoutePath(vehicleId)));
        return JsonResponse.ok(RouteJson.write(route));
    }

    /** {@code PUT /v1/vehicles/{vehicle_id}/route}: assigns the route in the body to the vehicle; 204. */
    JsonResponse assignRoute(RouteRequest request) {
        String vehicleId = request.pathVariable(VEHICLE_ID);
        if (request.body().isBlank()) {
            throw new PlanningApiException(
                    ApiError.BAD_REQUEST, "Missing request body: expected the route of " + vehicleId + " as JSON");
        }
        PlannedRoute route;
        try {
            route = RouteJson.read(request.body());
        } catch (IllegalArgumentException e) {
            throw new PlanningApiException(ApiError.BAD_REQUEST, "Invalid route: " + e.getMessage(), e);
        }
        if (!route.vehicleId().equals(vehicleId)) {
            throw new PlanningApiException(
                    ApiError.BAD_REQUEST,
                    "The route's vehicle_id " + route.vehicleId() + " differs from the vehicle in the path, "
                            + vehicleId);
        }
        requireValidCoordinates(route);
        directory.assign(route);
        return JsonResponse.noContent();
    }

    /** {@code GET /healthz}: 200 while the server runs. */
    JsonResponse health(RouteRequest request) {
        return JsonResponse.ok(HEALTHY);
    }

    private static void requireValidCoordinates(PlannedRoute route) {
        for (PlannedStop stop : route.stops()) {
            requireValidCoordinates(route, "stop " + stop.stopId(), stop.latitude(), stop.longitude());
        }
        for (RoutePoint point : route.path()) {
            requireValidCoordinates(route, "path point", point.latitude(), point.longitude());
        }
    }

    private static void requireValidCoordinates(PlannedRoute route, String what, double latitude, double longitude) {
        if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) {
            throw new PlanningApiException(
                    ApiError.BAD_REQUEST,
                    "Invalid route " + route.routeId() + ": " + what + " has latitude " + latitude + " and longitude "
                            + longitude + "; latitudes lie within -90..90 and longitudes within -180..180 (path"
                            + " coordinates are [longitude, latitude])");
        }
    }
}

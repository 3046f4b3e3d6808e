package io.fleetlake.model.planning;

/**
 * The planning API's HTTP contract (JSON, see {@link RouteJson}), served by the simulator in the embedded stack and by
 * the planning system in deployment.
 *
 * <ul>
 *   <li>{@code GET /v1/routes} → {@code {"routes": [route, ...]}}: the current route of every vehicle that has one;
 *   <li>{@code GET /v1/vehicles/{vehicle_id}/route} → a route, or 404 when the vehicle has none;
 *   <li>{@code PUT /v1/vehicles/{vehicle_id}/route} with a route body → 204: assigns or replaces the route (operators
 *       and tests); the body's vehicle_id must match the path;
 *   <li>{@code GET /healthz} → 200.
 * </ul>
 */
public final class PlanningApi {
    public static final String ROUTES_PATH = "/v1/routes";
    public static final String VEHICLE_ROUTE_PATH = "/v1/vehicles/{vehicle_id}/route";
    public static final String HEALTH_PATH = "/healthz";

    private PlanningApi() {}

    public static String vehicleRoutePath(String vehicleId) {
        return VEHICLE_ROUTE_PATH.replace("{vehicle_id}", vehicleId);
    }
}

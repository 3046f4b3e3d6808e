package io.fleetlake.dashboard.http;

/**
 * Handles the requests of one route. Handlers are stateless; they report failures by throwing {@link
 * io.fleetlake.dashboard.error.DashboardException}, which the router maps to a status.
 */
@FunctionalInterface
public interface RouteHandler {
    Reply handle(RouteRequest request);
}

package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.Route;
import io.fleetlake.model.catalog.CatalogRole;
import org.apache.iceberg.rest.Endpoint;

/**
 * What the catalog's routing table holds per route: the Iceberg REST endpoint it implements (advertised in {@code GET
 * /v1/config}), the role its requests need, and its handler. The optional {@code {prefix}} segment of the spec is not
 * served: paths start with {@code /v1/}.
 */
record EndpointRoute(Endpoint endpoint, RouteAccess access, IcebergHandler handler) {
    EndpointRoute {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(access, "access is null");
        requireNonNull(handler, "handler is null");
    }

    /** A route any authenticated client may call (a reader's). */
    static Route<EndpointRoute> route(Endpoint endpoint, IcebergHandler handler) {
        return route(endpoint, RouteAccess.role(CatalogRole.READER), handler);
    }

    static Route<EndpointRoute> route(Endpoint endpoint, RouteAccess access, IcebergHandler handler) {
        return Route.of(
                HttpMethod.valueOf(endpoint.httpMethod()).name(),
                endpoint.path().replace("/{prefix}", ""),
                new EndpointRoute(endpoint, access, handler));
    }
}

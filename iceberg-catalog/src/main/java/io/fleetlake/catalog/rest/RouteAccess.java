package io.fleetlake.catalog.rest;

import io.fleetlake.model.catalog.CatalogRole;
import java.util.Optional;

/** The role a request of a route needs; empty for the few routes anyone may call (token endpoint, health check). */
@FunctionalInterface
interface RouteAccess {
    RouteAccess PUBLIC = request -> Optional.empty();

    static RouteAccess role(CatalogRole role) {
        Optional<CatalogRole> required = Optional.of(role);
        return request -> required;
    }

    Optional<CatalogRole> required(IcebergRequest request);
}

package io.fleetlake.catalog.rest;

import java.util.Optional;
import org.apache.iceberg.rest.RESTResponse;

/** Handles the requests of one route. Handlers are stateless and throw Iceberg exceptions on failure. */
@FunctionalInterface
interface IcebergHandler {
    /** The response body, or empty for 204 No Content. */
    Optional<RESTResponse> handle(IcebergRequest request);
}

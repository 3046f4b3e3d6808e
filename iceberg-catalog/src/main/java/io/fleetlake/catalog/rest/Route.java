package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.PathTemplate;
import io.fleetlake.model.catalog.CatalogRole;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.rest.Endpoint;

/**
 * One entry of the routing table: an Iceberg REST endpoint such as {@code GET /v1/{prefix}/namespaces/{namespace}}
 * and its handler. The optional {@code {prefix}} segment of the spec is not served: paths start with {@code /v1/}.
 */
final class Route {
    private static final String PREFIX_SEGMENT = "/{prefix}";

    private final Endpoint endpoint;
    private final HttpMethod method;
    private final PathTemplate template;
    private final RouteAccess access;
    private final RouteHandler handler;

    /** A route any authenticated client may call (a reader's). */
    Route(Endpoint endpoint, RouteHandler handler) {
        this(endpoint, RouteAccess.role(CatalogRole.READER), handler);
    }

    Route(Endpoint endpoint, RouteAccess access, RouteHandler handler) {
        this.endpoint = requireNonNull(endpoint, "endpoint is null");
        this.access = requireNonNull(access, "access is null");
        this.handler = requireNonNull(handler, "handler is null");
        this.method = HttpMethod.valueOf(endpoint.httpMethod());
        this.template = PathTemplate.of(endpoint.path().replace(PREFIX_SEGMENT, ""));
    }

    Endpoint endpoint() {
        return endpoint;
    }

    HttpMethod method() {
        return method;
    }

    RouteAccess access() {
        return access;
    }

    RouteHandler handler() {
        return handler;
    }

    /** The path variables when the path matches this route's template, whatever the method. */
    Optional<Map<String, String>> match(List<String> pathSegments) {
        return template.match(pathSegments);
    }

    @Override
    public String toString() {
        return endpoint.toString();
    }
}

package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogRole;
import java.util.HashMap;
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
    private final List<String> segments;
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
        this.segments = segments(endpoint.path().replace(PREFIX_SEGMENT, ""));
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
        if (pathSegments.size() != segments.size()) {
            return Optional.empty();
        }
        Map<String, String> variables = new HashMap<>();
        for (int index = 0; index < segments.size(); index++) {
            String expected = segments.get(index);
            String actual = pathSegments.get(index);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                variables.put(expected.substring(1, expected.length() - 1), actual);
            } else if (!expected.equals(actual)) {
                return Optional.empty();
            }
        }
        return Optional.of(variables);
    }

    /** The segments of a path without leading and trailing slashes: {@code /v1/config/} gives [v1, config]. */
    static List<String> segments(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/", -1));
    }

    @Override
    public String toString() {
        return endpoint.toString();
    }
}

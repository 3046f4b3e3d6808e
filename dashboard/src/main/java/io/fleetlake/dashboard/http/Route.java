package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.PathTemplate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of the routing table: a GET path such as {@code /api/vehicles/{id}} and its handler. Every route of the
 * dashboard is read-only, so GET is the only method served.
 *
 * @param path the path template; a segment {@code {name}} matches any one segment
 * @param handler what answers it
 */
public record Route(String path, RouteHandler handler) {
    public Route {
        requireNonNull(path, "path is null");
        requireNonNull(handler, "handler is null");
    }

    public static Route get(String path, RouteHandler handler) {
        return new Route(path, handler);
    }

    /** The decoded path variables when the raw path matches the template. */
    Optional<Map<String, String>> match(List<String> rawSegments) {
        return PathTemplate.of(path).match(rawSegments, PathTemplate::decode, PathTemplate::decode);
    }
}

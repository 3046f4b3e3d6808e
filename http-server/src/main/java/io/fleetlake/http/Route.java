package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a {@link RouteTable}: a method, a path template such as {@code /v1/vehicles/{vehicle_id}/route}, and
 * what serves it.
 *
 * @param method the HTTP method in upper case, such as {@code GET}
 * @param <H> the server's handler type
 */
public record Route<H>(String method, PathTemplate path, H handler) {
    public Route {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        requireNonNull(handler, "handler is null");
    }

    public static <H> Route<H> of(String method, String path, H handler) {
        return new Route<>(method, PathTemplate.of(path), handler);
    }

    public static <H> Route<H> get(String path, H handler) {
        return of("GET", path, handler);
    }
}

package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * A request matched to a {@link Route}: what its handler reads of it.
 *
 * @param pathVariables the values of the template's {@code {name}} segments, in the form the server binds them
 *     (decoded by the dashboard and the planning API)
 * @param queryParameters decoded query parameters; the first value of each
 * @param body the request body, empty when there is none
 */
public record RouteRequest(Map<String, String> pathVariables, Map<String, String> queryParameters, String body) {
    public RouteRequest {
        pathVariables = Map.copyOf(requireNonNull(pathVariables, "pathVariables is null"));
        queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
        requireNonNull(body, "body is null");
    }

    /** The value of a {@code {name}} segment of the route's template. */
    public String pathVariable(String name) {
        String value = pathVariables.get(name);
        if (value == null) {
            throw new IllegalStateException("The route has no path variable " + name);
        }
        return value;
    }

    /** A query parameter, trimmed; empty when absent or blank. */
    public Optional<String> query(String name) {
        return Optional.ofNullable(queryParameters.get(name)).map(String::trim).filter(value -> !value.isEmpty());
    }
}

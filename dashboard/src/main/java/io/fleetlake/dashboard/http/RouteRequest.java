package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/** A request matched to a route: its decoded path variables and query parameters. */
public final class RouteRequest {
    private final Map<String, String> pathVariables;
    private final Map<String, String> queryParameters;

    public RouteRequest(Map<String, String> pathVariables, Map<String, String> queryParameters) {
        this.pathVariables = Map.copyOf(requireNonNull(pathVariables, "pathVariables is null"));
        this.queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
    }

    /** The value of a {@code {name}} segment of the route's path. */
    public String pathVariable(String name) {
        String value = pathVariables.get(name);
        if (value == null) {
            throw new IllegalStateException("The route has no path variable " + name);
        }
        return value;
    }

    /** A query parameter; empty when absent or blank. */
    public Optional<String> query(String name) {
        return Optional.ofNullable(queryParameters.get(name)).map(String::trim).filter(value -> !value.isEmpty());
    }
}

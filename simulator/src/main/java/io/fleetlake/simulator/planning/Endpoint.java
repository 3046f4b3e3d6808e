package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.PathTemplate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One entry of the routing table: a method, a path template of the {@link io.fleetlake.model.planning.PlanningApi}
 * such as {@code /v1/vehicles/{vehicle_id}/route}, and its handler.
 */
record Endpoint(String method, String pathTemplate, Handler handler) {
    Endpoint {
        requireNonNull(method, "method is null");
        requireNonNull(pathTemplate, "pathTemplate is null");
        requireNonNull(handler, "handler is null");
    }

    /** The URL-decoded path parameters when a path matches this endpoint's template, whatever the method. */
    Optional<Map<String, String>> match(List<String> pathSegments) {
        return PathTemplate.of(pathTemplate).match(pathSegments, UnaryOperator.identity(), Endpoint::decode);
    }

    private static String decode(String segment) {
        try {
            return PathTemplate.decode(segment);
        } catch (IllegalArgumentException e) {
            throw new PlanningApiException(
                    ApiError.BAD_REQUEST, "Malformed percent-encoding in the path segment '" + segment + "'", e);
        }
    }

    /** Serves the requests of one endpoint; stateless, throws {@link PlanningApiException} to refuse a request. */
    @FunctionalInterface
    interface Handler {
        ApiResponse handle(EndpointRequest request);
    }
}

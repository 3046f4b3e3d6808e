package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        List<String> template = segments(pathTemplate);
        if (pathSegments.size() != template.size()) {
            return Optional.empty();
        }
        Map<String, String> parameters = new HashMap<>();
        for (int index = 0; index < template.size(); index++) {
            String expected = template.get(index);
            String actual = pathSegments.get(index);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                parameters.put(expected.substring(1, expected.length() - 1), decode(actual));
            } else if (!expected.equals(actual)) {
                return Optional.empty();
            }
        }
        return Optional.of(parameters);
    }

    /** The segments of a path without leading and trailing slashes: {@code /v1/routes/} gives [v1, routes]. */
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

    private static String decode(String segment) {
        try {
            // In a path, '+' is a plus sign, not an encoded space.
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
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

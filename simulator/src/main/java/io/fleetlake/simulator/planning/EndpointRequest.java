package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A request matched to an endpoint: its decoded path parameters and its body.
 *
 * @param pathParameters such as {@code vehicle_id}, URL-decoded
 * @param body the request body, empty when there is none
 */
record EndpointRequest(Map<String, String> pathParameters, String body) {
    EndpointRequest {
        pathParameters = Map.copyOf(requireNonNull(pathParameters, "pathParameters is null"));
        requireNonNull(body, "body is null");
    }

    String pathParameter(String name) {
        String value = pathParameters.get(name);
        if (value == null) {
            throw new IllegalStateException("The endpoint has no path parameter " + name);
        }
        return value;
    }
}

package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

/**
 * One HTTP request, independent of the HTTP server that received it.
 *
 * @param method the HTTP method, such as {@code GET}
 * @param path the raw (still URL-encoded) path, such as {@code /v1/vehicles/VH-0001/route}
 * @param body the request body, empty when there is none
 */
public record ApiRequest(String method, String path, String body) {
    public ApiRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        requireNonNull(body, "body is null");
    }
}

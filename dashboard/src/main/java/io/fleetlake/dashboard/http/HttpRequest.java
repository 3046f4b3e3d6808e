package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * One HTTP request, independent of the HTTP server that received it.
 *
 * @param method the HTTP method in upper case, such as {@code GET}
 * @param path the raw (still URL-encoded) path, such as {@code /api/vehicles/VH-0001}
 * @param queryParameters decoded query parameters; the first value of each
 */
public record HttpRequest(String method, String path, Map<String, String> queryParameters) {
    public HttpRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
    }
}

package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * One HTTP request, independent of the HTTP server that received it.
 *
 * @param method the HTTP method
 * @param path the raw (still URL-encoded) path, such as {@code /v1/namespaces/fleet/tables/positions}
 * @param queryParameters decoded query parameters; the first value of each
 * @param body the request body, empty when there is none
 */
public record RestRequest(HttpMethod method, String path, Map<String, String> queryParameters, String body) {
    public RestRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
        requireNonNull(body, "body is null");
    }
}

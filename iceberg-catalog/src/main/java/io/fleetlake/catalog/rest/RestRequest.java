package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * One HTTP request, independent of the HTTP server that received it.
 *
 * @param method the HTTP method
 * @param path the raw (still URL-encoded) path, such as {@code /v1/namespaces/fleet/tables/positions}
 * @param queryParameters decoded query parameters; the first value of each
 * @param body the request body, empty when there is none
 * @param authorization the {@code Authorization} header, when sent; never logged
 */
public record RestRequest(
        HttpMethod method,
        String path,
        Map<String, String> queryParameters,
        String body,
        Optional<String> authorization) {
    public RestRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
        requireNonNull(body, "body is null");
        requireNonNull(authorization, "authorization is null");
    }

    /** A request without an {@code Authorization} header. */
    public RestRequest(HttpMethod method, String path, Map<String, String> queryParameters, String body) {
        this(method, path, queryParameters, body, Optional.empty());
    }

    @Override
    public String toString() {
        return "RestRequest{" + method + " " + path + ", authorization="
                + authorization.map(value -> "***").orElse("") + "}";
    }
}

package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One HTTP response, independent of the HTTP server that sends it.
 *
 * @param status the HTTP status code
 * @param body the JSON body, empty for responses without one (204, HEAD)
 */
public record RestResponse(int status, Optional<String> body) {
    public static final int OK = 200;
    public static final int NO_CONTENT = 204;

    public RestResponse {
        requireNonNull(body, "body is null");
    }

    static RestResponse json(int status, String body) {
        return new RestResponse(status, Optional.of(body));
    }

    static RestResponse noContent() {
        return new RestResponse(NO_CONTENT, Optional.empty());
    }
}

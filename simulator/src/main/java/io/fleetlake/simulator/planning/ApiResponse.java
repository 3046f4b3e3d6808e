package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One HTTP response, independent of the HTTP server that sends it.
 *
 * @param status the HTTP status code
 * @param body the JSON body; empty for 204 No Content
 */
public record ApiResponse(int status, Optional<String> body) {
    static final int OK = 200;
    static final int NO_CONTENT = 204;

    public ApiResponse {
        requireNonNull(body, "body is null");
    }

    static ApiResponse ok(String json) {
        return new ApiResponse(OK, Optional.of(json));
    }

    static ApiResponse noContent() {
        return new ApiResponse(NO_CONTENT, Optional.empty());
    }
}

package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

/**
 * The JSON body of every failed request: {@code {"status":404,"error":"SNAPSHOT_NOT_FOUND","category":"USER",
 * "message":"snapshot 5 does not exist (expired?)"}}.
 *
 * @param status the HTTP status, repeated for clients that only see the body
 * @param error the stable {@link io.fleetlake.dashboard.error.DashboardError} name
 * @param category USER, EXTERNAL or INTERNAL
 * @param message what went wrong and what to do
 */
public record ErrorBody(int status, String error, String category, String message) {
    public ErrorBody {
        requireNonNull(error, "error is null");
        requireNonNull(category, "category is null");
        requireNonNull(message, "message is null");
    }
}

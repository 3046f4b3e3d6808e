package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.ExceptionStatuses;

/** A request the planning API refuses; the message tells the client what to change. */
final class PlanningApiException extends RuntimeException implements ExceptionStatuses.WithStatus {
    private static final long serialVersionUID = 1L;

    private final ApiError error;

    PlanningApiException(ApiError error, String message) {
        super(message);
        this.error = requireNonNull(error, "error is null");
    }

    PlanningApiException(ApiError error, String message, Throwable cause) {
        super(message, cause);
        this.error = requireNonNull(error, "error is null");
    }

    ApiError error() {
        return error;
    }

    @Override
    public int status() {
        return error.status();
    }
}

package io.fleetlake.dashboard.error;

import static java.util.Objects.requireNonNull;

import io.fleetlake.http.ExceptionStatuses;

/** A failure with its {@link DashboardError} code; the message is shown to the user, so it says what to do. */
public final class DashboardException extends RuntimeException implements ExceptionStatuses.WithStatus {
    private static final long serialVersionUID = 1L;

    private final DashboardError error;

    public DashboardException(DashboardError error, String message) {
        super(requireNonNull(message, "message is null"));
        this.error = requireNonNull(error, "error is null");
    }

    public DashboardException(DashboardError error, String message, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.error = requireNonNull(error, "error is null");
    }

    public DashboardError error() {
        return error;
    }

    @Override
    public int status() {
        return error.status();
    }
}

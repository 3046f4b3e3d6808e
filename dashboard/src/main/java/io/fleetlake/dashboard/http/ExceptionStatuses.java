package io.fleetlake.dashboard.http;

import io.fleetlake.dashboard.error.DashboardError;
import io.fleetlake.dashboard.error.DashboardException;
import java.util.EnumMap;
import java.util.Map;

/**
 * The one table that turns a failure into an HTTP status. A {@link DashboardException} maps through its error code;
 * anything else is a bug of the dashboard: 500.
 */
public final class ExceptionStatuses {
    public static final int INTERNAL_SERVER_ERROR = 500;

    private static final Map<DashboardError, Integer> STATUSES = new EnumMap<>(Map.ofEntries(
            Map.entry(DashboardError.INVALID_PARAMETER, 400),
            Map.entry(DashboardError.UNAUTHORIZED, 401),
            Map.entry(DashboardError.CSRF_TOKEN_MISSING, 403),
            Map.entry(DashboardError.PAYLOAD_TOO_LARGE, 413),
            // The dashboard itself is the busy upstream here: 503 with Retry-After, as for an unavailable backend.
            Map.entry(DashboardError.TOO_BUSY, 503),
            Map.entry(DashboardError.NOT_FOUND, 404),
            Map.entry(DashboardError.VEHICLE_NOT_FOUND, 404),
            Map.entry(DashboardError.SNAPSHOT_NOT_FOUND, 404),
            Map.entry(DashboardError.METHOD_NOT_ALLOWED, 405),
            // The dashboard works as a gateway to these systems: their failure is a bad or missing upstream answer.
            Map.entry(DashboardError.UNREADABLE_VEHICLE_STATE, 502),
            Map.entry(DashboardError.REDIS_UNAVAILABLE, 503),
            Map.entry(DashboardError.TRINO_UNAVAILABLE, 503),
            Map.entry(DashboardError.HEALTH_UNAVAILABLE, 503),
            Map.entry(DashboardError.INTERNAL, INTERNAL_SERVER_ERROR)));

    private ExceptionStatuses() {}

    public static int statusOf(Throwable failure) {
        return STATUSES.get(errorOf(failure));
    }

    /** The error code of a failure: its own for a {@link DashboardException}, {@link DashboardError#INTERNAL} else. */
    public static DashboardError errorOf(Throwable failure) {
        return failure instanceof DashboardException known ? known.error() : DashboardError.INTERNAL;
    }
}

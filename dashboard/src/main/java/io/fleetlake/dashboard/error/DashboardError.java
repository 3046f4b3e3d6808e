package io.fleetlake.dashboard.error;

/**
 * Why a request failed, with a stable code that the JSON error body carries ({@code "error"}) and the category that
 * says whose problem it is, and the HTTP status it answers with. The dashboard works as a gateway to Redis, Trino and
 * the exporter: their failure is a bad (502) or missing (503) upstream answer; a busy dashboard answers 503 with
 * Retry-After, as an unavailable backend would. Never rename a constant: pages and scripts match on the names.
 */
public enum DashboardError {
    /** A query or path parameter is missing or malformed. */
    INVALID_PARAMETER(Category.USER, 400),
    /** No route serves the path. */
    NOT_FOUND(Category.USER, 404),
    /** The path is served, but not for this HTTP method. */
    METHOD_NOT_ALLOWED(Category.USER, 405),
    /** Redis holds no current state for the vehicle. */
    VEHICLE_NOT_FOUND(Category.USER, 404),
    /** The Iceberg snapshot does not exist, or no longer (snapshot expiry). */
    SNAPSHOT_NOT_FOUND(Category.USER, 404),
    /** No session: sign in first (or the session expired or was signed out). */
    UNAUTHORIZED(Category.USER, 401),
    /** A state-changing request without this session's CSRF token: possibly forged by another site. */
    CSRF_TOKEN_MISSING(Category.USER, 403),
    /** The request body is larger than dashboard.max-request-bytes. */
    PAYLOAD_TOO_LARGE(Category.USER, 413),
    /** dashboard.max-concurrent-requests requests are already being served: try again shortly. */
    TOO_BUSY(Category.EXTERNAL, 503),
    /** Redis cannot be reached or failed the command. */
    REDIS_UNAVAILABLE(Category.EXTERNAL, 503),
    /** Trino cannot be reached or failed the query. */
    TRINO_UNAVAILABLE(Category.EXTERNAL, 503),
    /** fleet-exporter's health report cannot be read, or no exporter is configured. */
    HEALTH_UNAVAILABLE(Category.EXTERNAL, 503),
    /** The state Redis holds for a vehicle misses a required field or has a malformed value. */
    UNREADABLE_VEHICLE_STATE(Category.EXTERNAL, 502),
    /** A bug or an unexpected state of the dashboard itself. */
    INTERNAL(Category.INTERNAL, 500);

    private final Category category;
    private final int status;

    DashboardError(Category category, int status) {
        this.category = category;
        this.status = status;
    }

    /** The HTTP status a request failing with this error is answered with. */
    public int status() {
        return status;
    }

    public Category category() {
        return category;
    }

    /** Whose problem an error is: the caller's, a system the dashboard depends on, or the dashboard's own. */
    public enum Category {
        USER,
        EXTERNAL,
        INTERNAL
    }
}

package io.fleetlake.dashboard.error;

/**
 * Why a request failed, with a stable code that the JSON error body carries ({@code "error"}) and the category that
 * says whose problem it is. Never rename a constant: pages and scripts match on the names.
 */
public enum DashboardError {
    /** A query or path parameter is missing or malformed. */
    INVALID_PARAMETER(Category.USER),
    /** No route serves the path. */
    NOT_FOUND(Category.USER),
    /** The path is served, but not for this HTTP method. */
    METHOD_NOT_ALLOWED(Category.USER),
    /** Redis holds no current state for the vehicle. */
    VEHICLE_NOT_FOUND(Category.USER),
    /** The Iceberg snapshot does not exist, or no longer (snapshot expiry). */
    SNAPSHOT_NOT_FOUND(Category.USER),
    /** No session: sign in first (or the session expired or was signed out). */
    UNAUTHORIZED(Category.USER),
    /** A state-changing request without this session's CSRF token: possibly forged by another site. */
    CSRF_TOKEN_MISSING(Category.USER),
    /** The request body is larger than dashboard.max-request-bytes. */
    PAYLOAD_TOO_LARGE(Category.USER),
    /** dashboard.max-concurrent-requests requests are already being served: try again shortly. */
    TOO_BUSY(Category.EXTERNAL),
    /** Redis cannot be reached or failed the command. */
    REDIS_UNAVAILABLE(Category.EXTERNAL),
    /** Trino cannot be reached or failed the query. */
    TRINO_UNAVAILABLE(Category.EXTERNAL),
    /** fleet-exporter's health report cannot be read, or no exporter is configured. */
    HEALTH_UNAVAILABLE(Category.EXTERNAL),
    /** The state Redis holds for a vehicle misses a required field or has a malformed value. */
    UNREADABLE_VEHICLE_STATE(Category.EXTERNAL),
    /** A bug or an unexpected state of the dashboard itself. */
    INTERNAL(Category.INTERNAL);

    private final Category category;

    DashboardError(Category category) {
        this.category = category;
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

package io.fleetlake.simulator.planning;

/** The errors the planning API answers with. The names are stable codes in the error body: never rename one. */
public enum ApiError {
    /** The request is malformed: an invalid route, or a body for another vehicle than the path's. */
    BAD_REQUEST(400),
    /** No such resource: an unknown path, or a vehicle without a route. */
    NOT_FOUND(404),
    /** The path exists, but not for this method. */
    METHOD_NOT_ALLOWED(405),
    /** A bug or an unexpected failure on the server; logged with its stack trace. */
    INTERNAL_ERROR(500);

    private final int status;

    ApiError(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }
}

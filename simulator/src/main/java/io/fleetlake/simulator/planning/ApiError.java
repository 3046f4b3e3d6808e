package io.fleetlake.simulator.planning;

/** The errors the planning API answers with. The names are stable codes in the error body: never rename one. */
public enum ApiError {
    /** The request is malformed: an invalid route, or a body for another vehicle than the path's. */
    BAD_REQUEST(400),
    /** No valid bearer token: the request carries none, or another one than the server's {@code planning.token}. */
    UNAUTHORIZED(401),
    /** No such resource: an unknown path, or a vehicle without a route. */
    NOT_FOUND(404),
    /** The path exists, but not for this method. */
    METHOD_NOT_ALLOWED(405),
    /** The request body is larger than {@code planning.max-request-bytes}. */
    PAYLOAD_TOO_LARGE(413),
    /** A bug or an unexpected failure on the server; logged with its stack trace. */
    INTERNAL_ERROR(500),
    /** {@code planning.max-concurrent-requests} requests are being served; try again in a moment. */
    TOO_BUSY(503);

    private final int status;

    ApiError(int status) {
        this.status = status;
    }

    public int status() {
        return status;
    }
}

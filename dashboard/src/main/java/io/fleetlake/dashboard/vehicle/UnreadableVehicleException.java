package io.fleetlake.dashboard.vehicle;

/** A stored vehicle state misses a required field or has a malformed value; the message names the vehicle and field. */
public final class UnreadableVehicleException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnreadableVehicleException(String message) {
        super(message);
    }

    public UnreadableVehicleException(String message, Throwable cause) {
        super(message, cause);
    }
}

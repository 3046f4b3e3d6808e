package io.fleetlake.operations.inspect;

/** A system of the stack could not be asked; the message names which one and why. */
public final class InspectionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InspectionException(String message, Throwable cause) {
        super(message, cause);
    }

    public InspectionException(String message) {
        super(message);
    }
}

package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

/** An audit could not be answered; the message is one line that says what to do. */
public final class AuditException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final AuditError error;

    public AuditException(AuditError error, String message) {
        super(requireNonNull(message, "message is null"));
        this.error = requireNonNull(error, "error is null");
    }

    public AuditException(AuditError error, String message, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.error = requireNonNull(error, "error is null");
    }

    public AuditError error() {
        return error;
    }

    /** The exit status of a command that failed with this exception. */
    public int exitCode() {
        return error.exitCode();
    }
}

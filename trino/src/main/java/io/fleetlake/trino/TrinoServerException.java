package io.fleetlake.trino;

/**
 * The Trino server cannot be started or did not come up: no suitable JDK, an incomplete server folder, a process that
 * exited or a start-up timeout. The message says what happened, where to look (the server log) and what to do.
 */
public final class TrinoServerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TrinoServerException(String message) {
        super(message);
    }

    public TrinoServerException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.fleetlake.flink.sinks;

/** The current-state store failed to apply a batch; retrying the batch is safe. */
public final class CurrentStateStoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CurrentStateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.fleetlake.model.restore;

/**
 * The restore guard refused to start the pipeline ({@link RestoreDecision.Outcome#REFUSE}): every way to start would
 * write again rows that are already in the Iceberg tables, or is not known to be safe. The message says what was
 * committed last, what was refused and what to do; it is the user's to act on, so it is shown without a stack trace.
 */
public final class RestoreRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public RestoreRefusedException(String message) {
        super(message);
    }
}

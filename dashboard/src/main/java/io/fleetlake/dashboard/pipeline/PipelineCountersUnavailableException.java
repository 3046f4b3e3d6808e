package io.fleetlake.dashboard.pipeline;

/** The pipeline's counters cannot be read now; the message says why, for the page. */
public final class PipelineCountersUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public PipelineCountersUnavailableException(String message) {
        super(message);
    }

    public PipelineCountersUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

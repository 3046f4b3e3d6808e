package io.fleetlake.dashboard.pipeline;

/** Reads the running pipeline's accounting counters. Implementations are thread-safe. */
@FunctionalInterface
public interface PipelineCountersReader {
    /**
     * @throws PipelineCountersUnavailableException when the cluster cannot be reached, the job is not running, or it
     *     has not reported its counters yet; the message says which
     */
    PipelineCounters read() throws PipelineCountersUnavailableException;
}

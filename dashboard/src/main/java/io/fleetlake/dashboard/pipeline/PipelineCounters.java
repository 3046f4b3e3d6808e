package io.fleetlake.dashboard.pipeline;

import static java.util.Objects.requireNonNull;

import java.util.OptionalDouble;

/**
 * The accounting counters of the running fleet pipeline, each summed over its operators and subtasks. They restart from
 * zero when the job restarts (Flink does not checkpoint metrics).
 *
 * @param jobId the Flink job they belong to
 * @param recordsRead raw records read from Kafka
 * @param recordsRejected records rejected by any rule
 * @param recordsAccepted positions that reached the sinks
 * @param resendsDeduplicated device resends dropped as duplicates
 */
public record PipelineCounters(
        String jobId, long recordsRead, long recordsRejected, long recordsAccepted, long resendsDeduplicated) {
    public PipelineCounters {
        requireNonNull(jobId, "jobId is null");
    }

    /** {@code recordsRejected / recordsRead}; empty while nothing has been read. */
    public OptionalDouble rejectionRate() {
        if (recordsRead == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((double) recordsRejected / recordsRead);
    }
}

package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import java.time.Instant;

/**
 * A checkpoint or savepoint the pipeline could start from. Restoring it rewinds the job to exactly that point: its
 * Kafka offsets, its state, and the Iceberg files it had written but not yet committed.
 *
 * @param jobId the Flink job that wrote it, as Flink prints a job id and as Iceberg's {@code FlinkSink} records it in
 *     the snapshot summary ({@value FlinkCommit#JOB_ID})
 * @param checkpointId its id; checkpoints and savepoints of one job share one counter, and a job restored from it
 *     counts on from there
 * @param completedAt when it completed
 * @param location the path or URI Flink restores it from
 * @param mode the mode of the job that wrote it
 * @param kind checkpoint or savepoint
 */
public record RestorePoint(
        String jobId, long checkpointId, Instant completedAt, String location, PipelineMode mode, Kind kind) {
    public RestorePoint {
        requireNonNull(jobId, "jobId is null");
        requireNonNull(completedAt, "completedAt is null");
        requireNonNull(location, "location is null");
        requireNonNull(mode, "mode is null");
        requireNonNull(kind, "kind is null");
        if (jobId.isBlank()) {
            throw new IllegalArgumentException("jobId is blank");
        }
        if (checkpointId < 0) {
            throw new IllegalArgumentException("checkpointId is negative: " + checkpointId);
        }
    }

    /** What Flink wrote. */
    public enum Kind {
        CHECKPOINT,
        SAVEPOINT;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** For messages: {@code savepoint 57 of the embedded job 4f3a... (completed 2026-..., file:/...)}. */
    public String describe() {
        return kind + " " + checkpointId + " of the " + mode + " job " + jobId + " (completed " + completedAt + ", "
                + location + ")";
    }
}

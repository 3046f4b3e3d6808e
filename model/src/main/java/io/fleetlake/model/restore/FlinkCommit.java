package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * An Iceberg snapshot committed by the pipeline's {@code FlinkSink}: its committer records in the snapshot summary
 * which Flink job committed ({@value #JOB_ID}) and up to which checkpoint of that job ({@value
 * #MAX_COMMITTED_CHECKPOINT_ID}). A job restored from a checkpoint of another job commits what that checkpoint still
 * held under the other job's id, then its own checkpoints under its own id. The pipeline adds the mode it ran in
 * ({@value #PIPELINE_MODE}); commits of earlier releases lack it.
 *
 * @param table the table's name in the {@code fleet} namespace
 * @param checkpointId the summary's {@value #MAX_COMMITTED_CHECKPOINT_ID}
 * @param committedAt the snapshot's timestamp
 * @param mode the summary's {@value #PIPELINE_MODE}, when present and known
 */
public record FlinkCommit(
        String table,
        long snapshotId,
        String jobId,
        long checkpointId,
        Instant committedAt,
        Optional<PipelineMode> mode) {
    /** Set by Iceberg's {@code IcebergFilesCommitter} on every snapshot it commits. */
    public static final String JOB_ID = "flink.job-id";
    /** Set by Iceberg's {@code IcebergFilesCommitter} on every snapshot it commits. */
    public static final String MAX_COMMITTED_CHECKPOINT_ID = "flink.max-committed-checkpoint-id";
    /** Set by the pipeline on every snapshot its sinks commit: {@code embedded} or {@code cluster}. */
    public static final String PIPELINE_MODE = "fleet.pipeline-mode";

    public FlinkCommit {
        requireNonNull(table, "table is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(committedAt, "committedAt is null");
        requireNonNull(mode, "mode is null");
    }

    /**
     * The Flink commit a snapshot is, or empty for a snapshot another writer made (table maintenance's rewrites, a
     * Trino {@code MERGE}, Spark): only {@code FlinkSink} sets both summary keys.
     *
     * @param timestampMillis the snapshot's {@code timestamp-ms}
     */
    public static Optional<FlinkCommit> of(
            String table, long snapshotId, long timestampMillis, Map<String, String> summary) {
        requireNonNull(summary, "summary is null");
        String jobId = summary.get(JOB_ID);
        String checkpointId = summary.get(MAX_COMMITTED_CHECKPOINT_ID);
        if (jobId == null || jobId.isBlank() || checkpointId == null) {
            return Optional.empty();
        }
        long checkpoint;
        try {
            checkpoint = Long.parseLong(checkpointId.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Snapshot " + snapshotId + " of " + table + " has "
                    + MAX_COMMITTED_CHECKPOINT_ID + " = '" + checkpointId + "', not a checkpoint id");
        }
        return Optional.of(new FlinkCommit(
                table,
                snapshotId,
                jobId.trim(),
                checkpoint,
                Instant.ofEpochMilli(timestampMillis),
                Optional.ofNullable(summary.get(PIPELINE_MODE)).flatMap(FlinkCommit::mode)));
    }

    private static Optional<PipelineMode> mode(String value) {
        try {
            return Optional.of(PipelineMode.named(value));
        } catch (IllegalArgumentException unknown) {
            // A mode this release does not know (a later one wrote it): the commit still counts, its mode is unknown.
            return Optional.empty();
        }
    }

    /** For messages: {@code the cluster job 5c1f... at 2026-... (fleet.positions snapshot 123, checkpoint 57)}. */
    public String describe() {
        return "the " + mode.map(value -> value + " ").orElse("") + "job " + jobId + " at " + committedAt + " (fleet."
                + table + " snapshot " + snapshotId + ", checkpoint " + checkpointId + ")";
    }
}

package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

/**
 * A restore point that must not be restored, and the commit that makes it so.
 *
 * @param overwrittenBy the newest commit that restoring it would write again
 */
public record StaleRestorePoint(RestorePoint point, FlinkCommit overwrittenBy, Reason reason) {
    public StaleRestorePoint {
        requireNonNull(point, "point is null");
        requireNonNull(overwrittenBy, "overwrittenBy is null");
        requireNonNull(reason, "reason is null");
    }

    public enum Reason {
        /**
         * Another job committed after the restore point completed: a job restored from it would read the Kafka records
         * of that commit again and write them a second time under a new job id, which no committer skips.
         */
        ANOTHER_JOB_COMMITTED_AFTER_IT,
        /**
         * Its own job committed a later checkpoint: a job restored from it would skip only what its job committed up to
         * the restore point, and write again what came after.
         */
        ITS_JOB_COMMITTED_A_LATER_CHECKPOINT
    }

    /** One line for messages: the restore point and why it is stale. */
    public String describe() {
        return switch (reason) {
            case ANOTHER_JOB_COMMITTED_AFTER_IT ->
                point.describe() + ": " + overwrittenBy.describe() + " committed after it";
            case ITS_JOB_COMMITTED_A_LATER_CHECKPOINT ->
                point.describe() + ": its job committed the later checkpoint "
                        + overwrittenBy.checkpointId() + " at " + overwrittenBy.committedAt() + " (fleet."
                        + overwrittenBy.table() + " snapshot " + overwrittenBy.snapshotId() + ")";
        };
    }
}

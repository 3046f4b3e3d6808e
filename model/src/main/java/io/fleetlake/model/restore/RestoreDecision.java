package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import java.util.List;
import java.util.Optional;

/**
 * What {@link RestoreGuard#decide} allows a start of the pipeline to do, and the message that says why.
 *
 * @param starting the mode of the pipeline that is starting
 * @param restorePoint what to restore, for {@link Outcome#RESTORE}
 * @param lastCommit the newest Flink commit in the tables, if any
 * @param stale the restore points that were refused (for {@link Outcome#RESTORE}, those newer than the one chosen),
 *     newest first
 * @param message what happened, for the log; for {@link Outcome#REFUSE} also what to do
 */
public record RestoreDecision(
        Outcome outcome,
        PipelineMode starting,
        Optional<RestorePoint> restorePoint,
        Optional<FlinkCommit> lastCommit,
        List<StaleRestorePoint> stale,
        String message) {
    public RestoreDecision {
        requireNonNull(outcome, "outcome is null");
        requireNonNull(starting, "starting is null");
        requireNonNull(restorePoint, "restorePoint is null");
        requireNonNull(lastCommit, "lastCommit is null");
        stale = List.copyOf(requireNonNull(stale, "stale is null"));
        requireNonNull(message, "message is null");
        if (restorePoint.isPresent() != (outcome == Outcome.RESTORE)) {
            throw new IllegalArgumentException("A restore point goes with RESTORE only, got " + outcome);
        }
    }

    public enum Outcome {
        /** Restore {@link #restorePoint()}: nothing was committed after it. */
        RESTORE,
        /**
         * No restore point, and no Flink commit in the tables: start from the consumer group's committed Kafka offsets
         * (the first start on a data folder); nothing can be written twice.
         */
        START_FRESH,
        /**
         * No safe restore point, but the configuration names the job that committed last ({@value
         * RestoreGuard#START_FROM_OFFSETS_AFTER_JOB}): start from the consumer group's committed offsets, accepting that
         * rows of up to one checkpoint may be written twice or be missing.
         */
        START_FROM_OFFSETS_ACCEPTED,
        /** Do not start: every way to start would write again rows already committed, or is not known to be safe. */
        REFUSE
    }

    /** The restore point, for {@link Outcome#RESTORE}. */
    public RestorePoint requireRestorePoint() {
        return restorePoint.orElseThrow(() -> new IllegalStateException("No restore point: " + outcome));
    }
}

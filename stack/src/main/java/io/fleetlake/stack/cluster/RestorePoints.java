package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import io.fleetlake.stack.cluster.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.stack.cluster.FlinkRestClient.Snapshot;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a new submission of the pipeline restores: exactly where the previous job ended. Restoring an older
 * snapshot would not lose anything, but would write again rows whose Iceberg commit came with a newer checkpoint, so
 * "the newest" has to be known, not guessed:
 *
 * <ol>
 *   <li>the JobManager still knows the previous job (it ended while the JobManager ran: stopped with a savepoint,
 *       failed for good): its newest completed checkpoint or savepoint, from the JobManager's statistics;
 *   <li>else (the JobManager was restarted, and without high availability it forgets its jobs) the savepoint the job
 *       was stopped with, if it was ({@link ClusterJobFiles#finalSavepoint});
 *   <li>else its newest complete checkpoint in the checkpoint directory ({@link RetainedCheckpointFinder});
 *   <li>else what the previous job itself was started from, if anything;
 *   <li>nothing, for the first job: it starts from the consumer group's committed Kafka offsets.
 * </ol>
 */
public final class RestorePoints {
    private static final Logger LOG = LoggerFactory.getLogger(RestorePoints.class);

    private final JobHistory history;
    private final ClusterJobFiles files;
    private final RetainedCheckpointFinder retainedCheckpoints;

    public RestorePoints(JobHistory history, ClusterJobFiles files, RetainedCheckpointFinder retainedCheckpoints) {
        this.history = requireNonNull(history, "history is null");
        this.files = requireNonNull(files, "files is null");
        this.retainedCheckpoints = requireNonNull(retainedCheckpoints, "retainedCheckpoints is null");
    }

    /** Where the job the stack submitted last ended, to restore it in the next submission; see the class comment. */
    public Optional<String> next() throws IOException {
        Optional<SubmittedJob> previous = files.lastSubmitted();
        if (previous.isEmpty()) {
            LOG.info("No pipeline job was submitted in this data folder before: the job starts from the Kafka offsets"
                    + " its consumer group committed");
            return Optional.empty();
        }
        String jobId = previous.get().jobId();
        Optional<CheckpointStatistics> statistics = history.checkpoints(jobId);
        if (statistics.isPresent()) {
            Optional<Snapshot> newest = statistics.get().newest();
            if (newest.isPresent()) {
                LOG.info(
                        "Resuming from the newest snapshot of the previous job {}: {} (checkpoint {})",
                        jobId,
                        newest.get().path(),
                        newest.get().id());
                return Optional.of(newest.get().path());
            }
            return startedFrom(previous.get(), "it completed no checkpoint");
        }
        Optional<String> finalSavepoint = files.finalSavepoint(jobId);
        if (finalSavepoint.isPresent()) {
            LOG.info(
                    "Resuming from the savepoint the previous job {} was stopped with: {}",
                    jobId,
                    finalSavepoint.get());
            return finalSavepoint;
        }
        Optional<String> retained = retainedCheckpoints.newest(jobId);
        if (retained.isPresent()) {
            LOG.info(
                    "The JobManager no longer knows the previous job {}; resuming from its newest retained"
                            + " checkpoint {}",
                    jobId,
                    retained.get());
            return retained;
        }
        return startedFrom(previous.get(), "it left no checkpoint");
    }

    private static Optional<String> startedFrom(SubmittedJob previous, String why) {
        previous.restoredFrom()
                .ifPresentOrElse(
                        path -> LOG.info(
                                "The previous job {} ended where it began ({}): resuming from what it was started"
                                        + " from, {}",
                                previous.jobId(),
                                why,
                                path),
                        () -> LOG.info(
                                "The previous job {} left nothing to resume from ({}): the job starts from the"
                                        + " Kafka offsets its consumer group committed",
                                previous.jobId(),
                                why));
        return previous.restoredFrom();
    }

    /** What the JobManager remembers of a job; empty when it does not know the job. */
    @FunctionalInterface
    public interface JobHistory {
        Optional<CheckpointStatistics> checkpoints(String jobId) throws IOException;
    }

    /** The newest complete checkpoint a job left in the cluster's checkpoint directory. */
    @FunctionalInterface
    public interface RetainedCheckpointFinder {
        Optional<String> newest(String jobId) throws IOException;
    }
}

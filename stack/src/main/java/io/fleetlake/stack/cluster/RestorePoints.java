package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient.CheckpointStatistics;
import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.FlinkCommit;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestoreDecision;
import io.fleetlake.model.restore.RestoreGuard;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.model.restore.RestoreRefusedException;
import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what a new submission of the pipeline to the cluster restores. Two candidates are offered to the {@link
 * RestoreGuard}, which restores the newest one that nothing was committed after, or refuses to start:
 *
 * <ul>
 *   <li>the handover savepoint, which a graceful stop in either mode leaves ({@link HandoverSavepoint}): how the
 *       pipeline comes over from the embedded mode, and how the cluster resumes after the whole stack was stopped;
 *   <li>exactly where the job the stack submitted last ended. Restoring an older snapshot of it would write again rows
 *       whose Iceberg commit came with a newer one, so "the newest" has to be known, not guessed:
 *       <ol>
 *         <li>the JobManager still knows the previous job (it ended while the JobManager ran: stopped with a savepoint,
 *             failed for good): its newest completed checkpoint or savepoint, from the JobManager's statistics;
 *         <li>else (the JobManager was restarted, and without high availability it forgets its jobs) the savepoint the
 *             job was stopped with, if it was ({@link ClusterJobFiles#finalSavepoint});
 *         <li>else its newest complete checkpoint in the checkpoint directory ({@link RetainedCheckpointFinder});
 *         <li>else what the previous job itself was started from, if anything.
 *       </ol>
 * </ul>
 *
 * Without either, and without any Flink commit in the tables, the job starts from the consumer group's committed Kafka
 * offsets (a new data folder).
 */
public final class RestorePoints {
    private static final Logger LOG = LoggerFactory.getLogger(RestorePoints.class);

    private final JobHistory history;
    private final ClusterJobFiles files;
    private final RetainedCheckpointFinder retainedCheckpoints;
    private final HandoverSavepoint handover;
    private final TableHistory tables;
    private final Optional<String> acceptedJob;

    /**
     * @param tables the tables' Flink commits, which the guard judges the candidates against
     * @param acceptedJob {@value RestoreGuard#START_FROM_OFFSETS_AFTER_JOB}, if set
     */
    public RestorePoints(
            JobHistory history,
            ClusterJobFiles files,
            RetainedCheckpointFinder retainedCheckpoints,
            HandoverSavepoint handover,
            TableHistory tables,
            Optional<String> acceptedJob) {
        this.history = requireNonNull(history, "history is null");
        this.files = requireNonNull(files, "files is null");
        this.retainedCheckpoints = requireNonNull(retainedCheckpoints, "retainedCheckpoints is null");
        this.handover = requireNonNull(handover, "handover is null");
        this.tables = requireNonNull(tables, "tables is null");
        this.acceptedJob = requireNonNull(acceptedJob, "acceptedJob is null")
                .map(String::trim)
                .filter(job -> !job.isEmpty());
    }

    /**
     * What the next submission restores; empty for a start from the consumer group's committed offsets.
     *
     * @throws RestoreRefusedException when the guard refuses the start; its message says what to do
     */
    public Optional<RestorePoint> next() throws IOException {
        List<RestorePoint> candidates = new ArrayList<>();
        previousJobsEnd().ifPresent(candidates::add);
        handover.read().ifPresent(candidates::add);
        RestoreDecision decision = RestoreGuard.decide(
                PipelineMode.CLUSTER,
                candidates,
                tables.flinkCommits(),
                acceptedJob,
                handover.directory().toString());
        switch (decision.outcome()) {
            case RESTORE, START_FRESH -> LOG.info("{}", decision.message());
            case START_FROM_OFFSETS_ACCEPTED -> LOG.warn("{}", decision.message());
            case REFUSE -> throw new RestoreRefusedException(decision.message());
        }
        return decision.restorePoint();
    }

    /** Where the job the stack submitted last ended; see the class comment. */
    private Optional<RestorePoint> previousJobsEnd() throws IOException {
        Optional<SubmittedJob> previous = files.lastSubmitted();
        if (previous.isEmpty()) {
            LOG.info("No pipeline job was submitted to the cluster in this data folder before");
            return Optional.empty();
        }
        String jobId = previous.get().jobId();
        Optional<CheckpointStatistics> statistics = history.checkpoints(jobId);
        if (statistics.isPresent()) {
            Optional<Snapshot> newest = statistics.get().newest();
            if (newest.isPresent()) {
                LOG.info(
                        "The newest snapshot of the previous job {}: {} (checkpoint {})",
                        jobId,
                        newest.get().path(),
                        newest.get().id());
                RestorePoint.Kind kind = newest.equals(statistics.get().latestSavepoint())
                        ? RestorePoint.Kind.SAVEPOINT
                        : RestorePoint.Kind.CHECKPOINT;
                return Optional.of(new RestorePoint(
                        jobId,
                        newest.get().id(),
                        Instant.ofEpochMilli(newest.get().completedAt()),
                        newest.get().path(),
                        PipelineMode.CLUSTER,
                        kind));
            }
            return startedFrom(previous.get(), "it completed no checkpoint");
        }
        Optional<RestorePoint> finalSavepoint = files.finalSavepoint(jobId);
        if (finalSavepoint.isPresent()) {
            LOG.info(
                    "The previous job {} was stopped with {}",
                    jobId,
                    finalSavepoint.get().describe());
            return finalSavepoint;
        }
        Optional<RestorePoint> retained = retainedCheckpoints.newest(jobId);
        if (retained.isPresent()) {
            LOG.info(
                    "The JobManager no longer knows the previous job {}; its newest retained checkpoint is {}",
                    jobId,
                    retained.get().describe());
            return retained;
        }
        return startedFrom(previous.get(), "it left no checkpoint");
    }

    private static Optional<RestorePoint> startedFrom(SubmittedJob previous, String why) {
        previous.restorePoint()
                .ifPresentOrElse(
                        point -> LOG.info(
                                "The previous job {} ended where it began ({}): what it was started from, {}",
                                previous.jobId(),
                                why,
                                point.describe()),
                        () -> LOG.info("The previous job {} left nothing to resume from ({})", previous.jobId(), why));
        return previous.restorePoint();
    }

    /** What the JobManager remembers of a job; empty when it does not know the job. */
    @FunctionalInterface
    public interface JobHistory {
        Optional<CheckpointStatistics> checkpoints(String jobId) throws IOException;
    }

    /** The newest complete checkpoint a job left in the cluster's checkpoint directory. */
    @FunctionalInterface
    public interface RetainedCheckpointFinder {
        Optional<RestorePoint> newest(String jobId) throws IOException;
    }

    /** The Flink commits of every table the pipeline writes ({@code CatalogInspector#flinkCommits}). */
    @FunctionalInterface
    public interface TableHistory {
        List<FlinkCommit> flinkCommits() throws IOException;
    }
}

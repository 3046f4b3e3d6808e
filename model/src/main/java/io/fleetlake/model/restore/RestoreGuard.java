package io.fleetlake.model.restore;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.PipelineMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what a start of the pipeline may restore, in either mode: the one place that does, called by the embedded
 * runner ({@code FleetPipeline}) and by the stack before it submits the job to the cluster ({@code ClusterJob}).
 *
 * <p><b>Why it is needed.</b> Iceberg's {@code FlinkSink} commits once per checkpoint and records the committing job
 * and checkpoint in the snapshot summary ({@link FlinkCommit}). A job restored from a snapshot of job J skips, at its
 * start, only what J itself committed up to the restored checkpoint; its own commits carry its own new job id. So a
 * restore is exactly-once only if nothing was committed after the restore point: a commit of another job after it, or a
 * later checkpoint of J, would be read from Kafka again and written a second time. That happens when the mode is
 * switched on the same data folder: each mode keeps its own checkpoints, and the other mode's job committed after them.
 *
 * <p><b>The rule.</b> A restore point of job J, checkpoint c, completed at time t, is <em>stale</em> when the tables'
 * current history holds
 *
 * <ul>
 *   <li>a commit of another job than J committed after t ({@link StaleRestorePoint.Reason#ANOTHER_JOB_COMMITTED_AFTER_IT}),
 *       or
 *   <li>a commit of J for a checkpoint after c ({@link StaleRestorePoint.Reason#ITS_JOB_COMMITTED_A_LATER_CHECKPOINT}).
 * </ul>
 *
 * A commit of J up to c, or of a job that ran before J (the one J was restored from), is fine, and so is a restore
 * point ahead of its job's last commit (the job failed between completing the checkpoint and committing it: the
 * restore commits it). Times come from different clocks (the checkpoint's completion from the JobManager or the file
 * system, the commit's from the committing task); the stack runs every process on one machine, and the jobs that the
 * rule separates never run at the same time, so the two are minutes apart, not milliseconds.
 *
 * <p><b>The choice.</b> Among the candidates (each mode offers its own newest checkpoint or savepoint, and the handover
 * savepoint a graceful stop in either mode leaves), the newest one that is not stale is restored. When none is safe:
 *
 * <ul>
 *   <li>no Flink commit at all in the tables: {@link RestoreDecision.Outcome#START_FRESH}, from the consumer group's
 *       committed offsets (a new data folder);
 *   <li>otherwise the start is refused ({@link RestoreDecision.Outcome#REFUSE}), also when there is no candidate at
 *       all. Starting from the consumer group's committed offsets is not exactly-once: the offsets and the Iceberg
 *       commit of a checkpoint are two separate steps after it completes, so a job that stopped between them leaves
 *       offsets one checkpoint behind its last commit (those rows would be written twice) or its last checkpoint's
 *       files uncommitted in a checkpoint no one restores (those rows would be missing), and the de-duplication state
 *       starts empty. The message says which job wrote last and when, in which mode, what was refused and how to start
 *       safely: once in the mode that wrote last, stopped with Ctrl-C, which leaves the handover savepoint.
 *   <li>unless {@value #START_FROM_OFFSETS_AFTER_JOB} names the job that committed last: then the start from the
 *       offsets is accepted ({@link RestoreDecision.Outcome#START_FROM_OFFSETS_ACCEPTED}), for when that job's restore
 *       points are gone for good. The setting only ever applies to that job: once the new job has committed, it no
 *       longer names the last writer, so a setting left behind cannot let a later unsafe start through.
 * </ul>
 */
public final class RestoreGuard {
    /**
     * The Flink job id after whose commits a start without a safe restore point may begin from the consumer group's
     * committed Kafka offsets.
     */
    public static final String START_FROM_OFFSETS_AFTER_JOB = "pipeline.start-from-offsets-after-job";

    /** Newest first: by completion time, then by checkpoint id (a savepoint taken in the same millisecond). */
    private static final Comparator<RestorePoint> NEWEST_FIRST = Comparator.comparing(RestorePoint::completedAt)
            .thenComparingLong(RestorePoint::checkpointId)
            .reversed();

    private static final Comparator<FlinkCommit> COMMIT_ORDER =
            Comparator.comparing(FlinkCommit::committedAt).thenComparingLong(FlinkCommit::checkpointId);

    private RestoreGuard() {}

    /**
     * See the class comment.
     *
     * @param starting the mode of the pipeline that is starting
     * @param candidates every restore point it could use; the same location offered twice counts once
     * @param commits the Flink commits of every table the pipeline writes ({@link TableSnapshot#flinkCommits})
     * @param acceptedJob the value of {@value #START_FROM_OFFSETS_AFTER_JOB}, if set
     * @param handoverDirectory where a graceful stop leaves the handover savepoint, for the message
     */
    public static RestoreDecision decide(
            PipelineMode starting,
            List<RestorePoint> candidates,
            List<FlinkCommit> commits,
            Optional<String> acceptedJob,
            String handoverDirectory) {
        requireNonNull(starting, "starting is null");
        requireNonNull(candidates, "candidates is null");
        requireNonNull(commits, "commits is null");
        requireNonNull(acceptedJob, "acceptedJob is null");
        requireNonNull(handoverDirectory, "handoverDirectory is null");
        Map<String, RestorePoint> byLocation = new LinkedHashMap<>();
        candidates.stream().sorted(NEWEST_FIRST).forEach(point -> byLocation.putIfAbsent(point.location(), point));
        Optional<FlinkCommit> lastCommit = commits.stream().max(COMMIT_ORDER);

        List<StaleRestorePoint> stale = new ArrayList<>();
        for (RestorePoint candidate : byLocation.values()) {
            Optional<StaleRestorePoint> staleness = staleness(candidate, commits);
            if (staleness.isEmpty()) {
                return new RestoreDecision(
                        RestoreDecision.Outcome.RESTORE,
                        starting,
                        Optional.of(candidate),
                        lastCommit,
                        stale,
                        restoring(candidate, stale));
            }
            stale.add(staleness.get());
        }
        if (lastCommit.isEmpty()) {
            return new RestoreDecision(
                    RestoreDecision.Outcome.START_FRESH,
                    starting,
                    Optional.empty(),
                    lastCommit,
                    stale,
                    "No restore point, and no commit of the pipeline in the Iceberg tables: starting from the Kafka"
                            + " offsets the consumer group committed, if any, else from the earliest");
        }
        FlinkCommit last = lastCommit.get();
        if (acceptedJob.map(String::trim).filter(last.jobId()::equals).isPresent()) {
            return new RestoreDecision(
                    RestoreDecision.Outcome.START_FROM_OFFSETS_ACCEPTED,
                    starting,
                    Optional.empty(),
                    lastCommit,
                    stale,
                    acceptedStart(last, stale));
        }
        return new RestoreDecision(
                RestoreDecision.Outcome.REFUSE,
                starting,
                Optional.empty(),
                lastCommit,
                stale,
                refusal(starting, last, stale, acceptedJob, handoverDirectory));
    }

    /** Why {@code point} must not be restored, or empty when it may be; see the class comment. */
    public static Optional<StaleRestorePoint> staleness(RestorePoint point, List<FlinkCommit> commits) {
        requireNonNull(point, "point is null");
        Optional<FlinkCommit> otherJobAfter = commits.stream()
                .filter(commit -> !commit.jobId().equals(point.jobId()))
                .filter(commit -> commit.committedAt().isAfter(point.completedAt()))
                .max(COMMIT_ORDER);
        if (otherJobAfter.isPresent()) {
            return Optional.of(new StaleRestorePoint(
                    point, otherJobAfter.get(), StaleRestorePoint.Reason.ANOTHER_JOB_COMMITTED_AFTER_IT));
        }
        return commits.stream()
                .filter(commit -> commit.jobId().equals(point.jobId()))
                .filter(commit -> commit.checkpointId() > point.checkpointId())
                .max(Comparator.comparingLong(FlinkCommit::checkpointId))
                .map(commit -> new StaleRestorePoint(
                        point, commit, StaleRestorePoint.Reason.ITS_JOB_COMMITTED_A_LATER_CHECKPOINT));
    }

    private static String restoring(RestorePoint point, List<StaleRestorePoint> passedOver) {
        StringBuilder message = new StringBuilder("Restoring ").append(point.describe());
        if (!passedOver.isEmpty()) {
            message.append("; passed over, because restoring them would write rows again:");
            passedOver.forEach(stale ->
                    message.append(System.lineSeparator()).append("  - ").append(stale.describe()));
        }
        return message.toString();
    }

    private static String acceptedStart(FlinkCommit last, List<StaleRestorePoint> stale) {
        StringBuilder message = new StringBuilder("Starting from the Kafka offsets the consumer group committed, as ")
                .append(START_FROM_OFFSETS_AFTER_JOB)
                .append(" = ")
                .append(last.jobId())
                .append(" allows, although no restore point of that job is safe here; the last commit to the tables")
                .append(" was made by ")
                .append(last.describe())
                .append(". Rows of up to one checkpoint of that job may be written twice or be missing, and the")
                .append(" de-duplication of device resends starts empty");
        appendStale(message, stale);
        return message.toString();
    }

    private static String refusal(
            PipelineMode starting,
            FlinkCommit last,
            List<StaleRestorePoint> stale,
            Optional<String> acceptedJob,
            String handoverDirectory) {
        String newline = System.lineSeparator();
        StringBuilder message = new StringBuilder("Refusing to start the pipeline in ")
                .append(starting)
                .append(" mode: it would write again rows that are already in the Iceberg tables. The last commit to")
                .append(" the tables was made by ")
                .append(last.describe())
                .append(", and ");
        if (stale.isEmpty()) {
            message.append("there is no restore point to resume from: starting from the Kafka offsets the consumer")
                    .append(" group committed could write rows of that job's last checkpoint twice, or miss them.");
        } else {
            message.append("every restore point here is older than what was committed:");
            stale.forEach(point -> message.append(newline).append("  - ").append(point.describe()));
            message.append(newline)
                    .append("Restoring one would rewind the Kafka offsets to before those commits and write their")
                    .append(" rows a second time.");
        }
        message.append(newline);
        Optional<PipelineMode> lastMode = last.mode();
        if (lastMode.isPresent() && lastMode.get() != starting) {
            message.append("Job ")
                    .append(last.jobId())
                    .append(" ran in ")
                    .append(lastMode.get())
                    .append(" mode, where its restore point is. To switch modes, start the pipeline once in ")
                    .append(lastMode.get())
                    .append(" mode:")
                    .append(newline)
                    .append("  ./fleet up --pipeline-mode ")
                    .append(lastMode.get())
                    .append(newline)
                    .append("wait until it is healthy, then stop it with Ctrl-C: it stops the job with a savepoint in ")
                    .append(handoverDirectory)
                    .append(", which the next start in either mode restores.");
        } else if (lastMode.isPresent()) {
            message.append("Job ")
                    .append(last.jobId())
                    .append(" ran in ")
                    .append(starting)
                    .append(" mode, as this start does, but its newest restore point is not here: if its checkpoints")
                    .append(" or the savepoint in ")
                    .append(handoverDirectory)
                    .append(" were moved away, put them back.");
        } else {
            message.append("The commit does not say which mode ran job ")
                    .append(last.jobId())
                    .append(" (an earlier release wrote it): start the pipeline once in the mode that ran it")
                    .append(newline)
                    .append("  ./fleet up --pipeline-mode embedded     or     ./fleet up --pipeline-mode cluster")
                    .append(newline)
                    .append("wait until it is healthy, then stop it with Ctrl-C: it stops the job with a savepoint in ")
                    .append(handoverDirectory)
                    .append(", which the next start in either mode restores.");
        }
        acceptedJob.ifPresent(job -> message.append(newline)
                .append(START_FROM_OFFSETS_AFTER_JOB)
                .append(" = ")
                .append(job)
                .append(" does not apply: it names another job than the one that committed last."));
        message.append(newline)
                .append("If no restore point of job ")
                .append(last.jobId())
                .append(" exists any more, start from the Kafka offsets the consumer group committed instead,")
                .append(" accepting that rows of up to one checkpoint may be written twice or be missing:")
                .append(newline)
                .append("  --set ")
                .append(START_FROM_OFFSETS_AFTER_JOB)
                .append("=")
                .append(last.jobId());
        return message.toString();
    }

    private static void appendStale(StringBuilder message, List<StaleRestorePoint> stale) {
        if (!stale.isEmpty()) {
            message.append("; refused:");
            stale.forEach(point ->
                    message.append(System.lineSeparator()).append("  - ").append(point.describe()));
        }
    }
}

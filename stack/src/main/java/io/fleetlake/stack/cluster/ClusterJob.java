package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestClient.JobDetails;
import io.fleetlake.flink.rest.FlinkRestClient.JobSummary;
import io.fleetlake.flink.rest.FlinkRestClient.Snapshot;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.stack.cluster.ClusterJobFiles.SubmittedJob;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ComponentExit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline job on the stack's Flink session cluster, as a component: {@link #start()} submits the job jar through
 * the JobManager's REST API (upload, then run with the program arguments, the parallelism and the snapshot to restore,
 * {@link RestorePoints}), and the component is healthy once every task of the job runs. It is the only submitter of
 * the pipeline job in the stack.
 *
 * <p>The stack's supervisor treats the job like a process: {@link #exit()} reports it ended when the JobManager says it
 * finished, was cancelled or failed for good, or no longer knows it (the JobManager was restarted); the supervisor
 * then starts the component again, which submits the job again from where the previous one ended. That is also how
 * {@code fleet cluster rescale} works: it stops the job with a savepoint and the stack resubmits it at the requested
 * parallelism. Failures inside a running job (a lost TaskManager) are Flink's to recover from its checkpoints; the job
 * stays known and is not resubmitted. {@link #stop()} stops the job with a savepoint in the handover folder (the
 * canonical format, which the embedded pipeline's heap state restores as well as RocksDB), recorded as the handover
 * ({@link HandoverSavepoint}), so that the next start in either mode resumes from it; if that fails the job is
 * cancelled and resumes from its last retained checkpoint, in this mode only.
 */
public final class ClusterJob implements Component {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterJob.class);

    private final String name;
    private final Set<String> dependencies;
    private final FlinkRestClient rest;
    private final FlinkClusterSettings cluster;
    private final ClusterJobFiles files;
    private final RestorePoints restorePoints;
    private final HandoverSavepoint handover;
    private final Supplier<Path> jobJar;
    private final Supplier<List<String>> programArguments;
    private final int defaultParallelism;
    private final Path logFile;
    private volatile String jobId;
    private volatile boolean stopping;

    /**
     * @param jobJar the shaded job jar; checked at every start, so a missing build is reported then
     * @param programArguments the job's arguments, computed at every start (they name its configuration file)
     * @param defaultParallelism the parallelism unless {@code fleet cluster rescale} asked for another
     * @param logFile the JobManager's log, where Flink logs why a job failed
     * @param handover where {@link #stop()} leaves the job's last savepoint for the next start in either mode
     */
    public ClusterJob(
            String name,
            Set<String> dependencies,
            FlinkRestClient rest,
            FlinkClusterSettings cluster,
            ClusterJobFiles files,
            RestorePoints restorePoints,
            Supplier<Path> jobJar,
            Supplier<List<String>> programArguments,
            int defaultParallelism,
            Path logFile,
            HandoverSavepoint handover) {
        this.name = requireNonNull(name, "name is null");
        this.dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
        this.rest = requireNonNull(rest, "rest is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.files = requireNonNull(files, "files is null");
        this.restorePoints = requireNonNull(restorePoints, "restorePoints is null");
        this.jobJar = requireNonNull(jobJar, "jobJar is null");
        this.programArguments = requireNonNull(programArguments, "programArguments is null");
        this.defaultParallelism = defaultParallelism;
        this.logFile = requireNonNull(logFile, "logFile is null");
        this.handover = requireNonNull(handover, "handover is null");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Set<String> dependencies() {
        return dependencies;
    }

    @Override
    public synchronized void start() {
        stopping = false;
        try {
            Optional<JobSummary> running = rest.jobs().stream()
                    .filter(job -> PipelineMetricNames.JOB_NAME.equals(job.name()) && !job.ended())
                    .findFirst();
            if (running.isPresent()) {
                jobId = running.get().id();
                LOG.info(
                        "The pipeline job {} already runs on the Flink cluster ({}); watching it",
                        jobId,
                        running.get().state());
                return;
            }
            int parallelism = files.requestedParallelism().orElse(defaultParallelism);
            if (parallelism < 1 || parallelism > cluster.totalSlots()) {
                throw new IllegalStateException("Cannot run the pipeline at parallelism " + parallelism + ": the"
                        + " cluster has " + cluster.totalSlots() + " slots (" + FlinkClusterSettings.TASK_MANAGERS
                        + " x " + FlinkClusterSettings.SLOTS_PER_TASK_MANAGER + "); rescale with fleet cluster rescale"
                        + " or give the cluster more slots");
            }
            Optional<RestorePoint> restoreFrom = restorePoints.next();
            jobId = submit(parallelism, restoreFrom.map(RestorePoint::location));
            files.recordSubmitted(SubmittedJob.of(jobId, restoreFrom, parallelism, Instant.now()));
            LOG.info(
                    "Submitted the pipeline job {} at parallelism {} to the Flink cluster at {}{}",
                    jobId,
                    parallelism,
                    rest.restUri(),
                    restoreFrom
                            .map(point -> ", restoring " + point.describe())
                            .orElse(", from the committed Kafka offsets"));
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot submit the pipeline job to the Flink cluster at " + rest.restUri() + ": " + e.getMessage(),
                    e);
        }
    }

    private String submit(int parallelism, Optional<String> restoreFrom) throws IOException {
        Path jar = jobJar.get();
        String jarId = rest.uploadJar(jar);
        try {
            return rest.runJar(jarId, programArguments.get(), parallelism, restoreFrom);
        } finally {
            try {
                rest.deleteJar(jarId);
            } catch (IOException e) {
                LOG.warn("Cannot delete the uploaded job jar {} from the JobManager: {}", jarId, e.getMessage());
            }
        }
    }

    @Override
    public boolean isHealthy() {
        String current = jobId;
        if (current == null) {
            return false;
        }
        try {
            return rest.job(current).map(JobDetails::fullyRunning).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public Optional<String> failure() {
        String current = jobId;
        if (current == null) {
            return Optional.empty();
        }
        try {
            return rest.job(current)
                    .filter(JobDetails::ended)
                    .map(job -> "The pipeline job " + current + " ended as " + job.state() + " on the Flink cluster;"
                            + " the JobManager's log " + logFile + " says why");
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<ComponentExit> exit() {
        String current = jobId;
        if (current == null || stopping) {
            return Optional.empty();
        }
        Optional<JobDetails> job;
        try {
            job = rest.job(current);
        } catch (IOException e) {
            // The JobManager does not answer: its own supervision brings it back; then the job is looked at again.
            return Optional.empty();
        }
        if (job.isEmpty()) {
            LOG.warn(
                    "The JobManager no longer knows the pipeline job {} (it was restarted): the job is submitted again"
                            + " from its newest snapshot",
                    current);
            return Optional.of(new ComponentExit(1, Optional.of(logFile)));
        }
        if (!job.get().ended()) {
            return Optional.empty();
        }
        if ("FINISHED".equals(job.get().state())) {
            LOG.info("The pipeline job {} was stopped with a savepoint: it is submitted again from it", current);
            return Optional.of(new ComponentExit(0, Optional.of(logFile)));
        }
        LOG.warn(
                "The pipeline job {} ended as {}: it is submitted again from its newest snapshot",
                current,
                job.get().state());
        return Optional.of(new ComponentExit(1, Optional.of(logFile)));
    }

    @Override
    public String endpoint() {
        return rest.restUri() + "/#/job/running";
    }

    @Override
    public Optional<Path> logFile() {
        return Optional.of(logFile);
    }

    /** The job this component submitted or watches, if any. */
    public Optional<String> jobId() {
        return Optional.ofNullable(jobId);
    }

    /**
     * Stops the running job with a savepoint in the handover folder, recorded as the job's final savepoint and as the
     * handover for the next start in either mode; cancels it when that fails. Nothing to do when the job has ended
     * already (the supervisor stops the component before it starts it again).
     */
    @Override
    public synchronized void stop() {
        stopping = true;
        String current = jobId;
        jobId = null;
        if (current == null) {
            return;
        }
        String location;
        long started = System.nanoTime();
        try {
            Optional<JobDetails> job = rest.job(current);
            if (job.isEmpty() || job.get().ended()) {
                return;
            }
            LOG.info(
                    "Stopping the pipeline job {} with a savepoint in {} (canonical format, for either pipeline mode)",
                    current,
                    handover.directory());
            location = rest.stopWithSavepoint(current, handover.targetDirectory(), cluster.stopTimeout());
        } catch (IOException e) {
            LOG.warn(
                    "Cannot stop the pipeline job {} with a savepoint ({}); cancelling it: the next start in cluster"
                            + " mode resumes from its last retained checkpoint",
                    current,
                    e.getMessage());
            try {
                rest.cancel(current);
            } catch (IOException cancelFailed) {
                LOG.error(
                        "Cannot cancel the pipeline job {} either ({}); it ends with the cluster",
                        current,
                        cancelFailed.getMessage());
            }
            return;
        }
        try {
            Snapshot savepoint = rest.completedSavepoint(current, location, FlinkRestClient.STATISTICS_REFRESH)
                    .orElseThrow(() -> new IOException("the JobManager does not report the savepoint " + location
                            + " the job was stopped with, so its checkpoint id is unknown"));
            RestorePoint recorded = files.recordFinalSavepoint(current, savepoint);
            List<Path> replaced = handover.record(recorded);
            LOG.info(
                    "Stopped the pipeline job {} with {} in {} ms; recorded as the handover in {}{}",
                    current,
                    recorded.describe(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    handover.directory(),
                    replaced.isEmpty() ? "" : " (replaced savepoints deleted: " + replaced + ")");
        } catch (IOException | UncheckedIOException e) {
            LOG.error(
                    "The pipeline job {} stopped with the savepoint {}, but it cannot be recorded as the handover ({}):"
                            + " the next start may refuse to start and say what to do",
                    current,
                    location,
                    e.getMessage());
        }
    }
}

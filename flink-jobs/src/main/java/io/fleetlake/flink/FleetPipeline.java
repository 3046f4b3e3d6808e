package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.config.HandoverConfig;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.rest.FlinkRestStores;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.flink.runtime.CommitHistory;
import io.fleetlake.flink.runtime.PipelineMetricsReporter;
import io.fleetlake.flink.runtime.RestartReporter;
import io.fleetlake.flink.runtime.RetainedCheckpoints;
import io.fleetlake.flink.runtime.Savepoints;
import io.fleetlake.flink.sinks.DeadLetterSink;
import io.fleetlake.flink.sinks.IcebergCommitHistory;
import io.fleetlake.flink.sinks.IcebergTableSink;
import io.fleetlake.flink.sinks.LatePositionSink;
import io.fleetlake.flink.sinks.RedisCurrentStateSink;
import io.fleetlake.flink.sources.RawPositionsSource;
import io.fleetlake.flink.sources.RouteSource;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestoreDecision;
import io.fleetlake.model.restore.RestoreGuard;
import io.fleetlake.model.restore.RestorePoint;
import io.fleetlake.model.restore.RestoreRefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FlinkException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet pipeline running on a local MiniCluster in this JVM. {@link #start()} lets the {@link RestoreGuard} choose
 * what to resume from (the newest retained checkpoint or the handover savepoint, whichever is the newest that nothing
 * was committed after; or the consumer group's committed offsets on a new data folder) or refuse to start, submits the
 * job and returns once it is running. {@link #close()} stops the job with a savepoint in the handover folder, in
 * Flink's canonical format, which the next start in either pipeline mode can restore, and records it there
 * ({@link HandoverSavepoint}); without a handover folder, or when the savepoint does not complete within {@code
 * pipeline.stop-timeout}, it cancels the job, which retains its last completed checkpoint.
 */
public final class FleetPipeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FleetPipeline.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration STATUS_POLL_INTERVAL = Duration.ofMillis(100);
    private static final Duration CANCEL_TIMEOUT = Duration.ofMinutes(1);
    private static final Duration RESTART_POLL_INTERVAL = Duration.ofSeconds(5);

    private final FleetPipelineConfig config;
    private final Path checkpointDirectory;
    private final Function<FleetPipelineConfig, FleetPipelineJob> jobFactory;
    private final MetricsEndpointConfig metricsEndpoint;
    private final CommitHistory history;
    private JobClient jobClient;
    private RestartReporter restartReporter;

    FleetPipeline(FleetPipelineConfig config, Function<FleetPipelineConfig, FleetPipelineJob> jobFactory) {
        this(config, jobFactory, CommitHistory.none());
    }

    /** @param history the tables' Flink commits, which the restore guard judges the restore points against */
    FleetPipeline(
            FleetPipelineConfig config,
            Function<FleetPipelineConfig, FleetPipelineJob> jobFactory,
            CommitHistory history) {
        this(config, jobFactory, MetricsEndpointConfig.from(ConfigSource.empty(), "pipeline"), history);
    }

    FleetPipeline(
            FleetPipelineConfig config,
            Function<FleetPipelineConfig, FleetPipelineJob> jobFactory,
            MetricsEndpointConfig metricsEndpoint,
            CommitHistory history) {
        this.config = requireNonNull(config, "config is null");
        this.checkpointDirectory = config.requireCheckpointDirectory();
        this.jobFactory = requireNonNull(jobFactory, "jobFactory is null");
        this.metricsEndpoint = requireNonNull(metricsEndpoint, "metricsEndpoint is null");
        this.history = requireNonNull(history, "history is null");
    }

    /**
     * The production pipeline: Kafka raw positions and the planning API in; Kafka dead letters,
     * {@code fleet.rejected_positions}, Redis, {@code fleet.positions}, {@code fleet.vehicle_minutes} and Kafka late
     * positions out.
     */
    public static FleetPipeline production(FleetPipelineConfig config) {
        return production(config, MetricsEndpointConfig.from(ConfigSource.empty(), "pipeline"));
    }

    /** The production pipeline, serving its metrics on {@code metricsEndpoint} ({@code pipeline.metrics-port}). */
    public static FleetPipeline production(FleetPipelineConfig config, MetricsEndpointConfig metricsEndpoint) {
        return new FleetPipeline(
                config,
                pipelineConfig -> productionJob(pipelineConfig, PipelineMode.EMBEDDED),
                metricsEndpoint,
                IcebergCommitHistory.of(config));
    }

    /**
     * The production job; {@link FleetPipelineClusterMain} submits the same one to a Flink cluster. Every Iceberg
     * commit names {@code mode} in its snapshot summary.
     */
    static FleetPipelineJob productionJob(FleetPipelineConfig config, PipelineMode mode) {
        return productionJob(
                config,
                IcebergTableSink.positions(config).committedBy(mode),
                IcebergTableSink.rejectedPositions(config).committedBy(mode),
                IcebergTableSink.vehicleMinutes(config).committedBy(mode));
    }

    /** The production job with the Iceberg tables of another catalog, for tests of the job graph. */
    static FleetPipelineJob productionJob(
            FleetPipelineConfig config,
            IcebergTableSink<EnrichedPosition> positions,
            IcebergTableSink<RejectedRecord> rejectedPositions,
            IcebergTableSink<VehicleMinute> vehicleMinutes) {
        return FleetPipelineJob.builder()
                .source(RawPositionsSource.create(config))
                .routeSource(RouteSource.create(config.planningUri(), config.enrichment()))
                .deadLetterSink(DeadLetterSink.create(config))
                .rejectedTableSink(rejectedPositions)
                .currentStateSink(RedisCurrentStateSink.create(config.redisUri(), config.redisVehicleTtl()))
                .positionTableSink(positions)
                .vehicleMinuteTableSink(vehicleMinutes)
                .latePositionSink(LatePositionSink.create(config))
                .validationRules(config.validationRules())
                .enrichment(config.enrichment())
                .stateTtl(config.dedupTtl())
                .dedupFixesPerVehicle(config.dedupFixesPerVehicle())
                .maxOutOfOrderness(config.maxOutOfOrderness())
                .sourceIdleness(config.sourceIdleness())
                .allowedLateness(config.allowedLateness())
                .bufferTimeout(config.bufferTimeout())
                .build();
    }

    /**
     * Decides what to resume from, submits the job and waits until it is running; throws when it fails to get there,
     * and {@link RestoreRefusedException} when the restore guard refuses to start.
     */
    public synchronized void start() throws Exception {
        if (jobClient != null) {
            throw new IllegalStateException("The fleet pipeline is already started");
        }
        Files.createDirectories(checkpointDirectory);
        Optional<String> restoreFrom = decideRestore().restorePoint().map(RestorePoint::location);
        StreamExecutionEnvironment environment =
                StreamExecutionEnvironment.getExecutionEnvironment(PipelineMetricsReporter.apply(
                        ClusterConfiguration.create(config, checkpointDirectory, restoreFrom), metricsEndpoint));
        jobFactory.apply(config).addTo(environment);
        try {
            jobClient = environment.executeAsync(PipelineMetricNames.JOB_NAME);
        } catch (FlinkException e) {
            // A checkpoint that does not map to the job is refused here, before the job exists.
            throw new IllegalStateException(
                    "The fleet pipeline job could not be submitted" + restoreAdvice(restoreFrom), e);
        }
        awaitRunning(restoreFrom);
        restartReporter = RestartReporter.start(
                config.restUri(),
                config.restTls().map(FlinkRestStores::clientTls),
                jobClient.getJobID(),
                RESTART_POLL_INTERVAL);
        LOG.info(
                "Fleet pipeline running, ready on {}{} (job {}, checkpoints every {} in {})",
                config.restUri(),
                config.restTls().isPresent() ? " (mutual TLS)" : "",
                jobClient.getJobID(),
                config.checkpointInterval(),
                checkpointDirectory);
    }

    /**
     * The candidates are this mode's newest retained checkpoint and the handover savepoint of the last graceful stop in
     * either mode; the guard judges them against the tables' Flink commits.
     */
    private RestoreDecision decideRestore() {
        List<RestorePoint> candidates = new ArrayList<>();
        RetainedCheckpoints.newestRestorePoint(checkpointDirectory).ifPresent(candidates::add);
        handover().flatMap(HandoverSavepoint::read).ifPresent(candidates::add);
        RestoreDecision decision = RestoreGuard.decide(
                PipelineMode.EMBEDDED,
                candidates,
                history.flinkCommits(),
                config.handover().startFromOffsetsAfterJob(),
                handover()
                        .map(folder -> folder.directory().toString())
                        .orElse("the folder " + HandoverConfig.DIRECTORY + " names (not set here)"));
        switch (decision.outcome()) {
            case RESTORE ->
                LOG.info(
                        "{}; state of operators retired since it was written ({}), if any, is dropped, and every other"
                                + " operator's state is restored",
                        decision.message(),
                        FleetPipelineJob.RETIRED_UIDS);
            case START_FRESH -> LOG.info("{} (checkpoints in {})", decision.message(), checkpointDirectory);
            case START_FROM_OFFSETS_ACCEPTED -> LOG.warn("{}", decision.message());
            case REFUSE -> throw new RestoreRefusedException(decision.message());
        }
        return decision;
    }

    private Optional<HandoverSavepoint> handover() {
        return config.handover().directory().map(HandoverSavepoint::new);
    }

    private void awaitRunning(Optional<String> restoreFrom) throws Exception {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (true) {
            JobStatus status = jobClient.getJobStatus().get();
            if (status == JobStatus.RUNNING) {
                return;
            }
            if (status.isGloballyTerminalState()) {
                throw new IllegalStateException(
                        "The fleet pipeline job ended as " + status + " during start-up" + restoreAdvice(restoreFrom),
                        failureOf(jobClient));
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("The fleet pipeline job is still " + status + " after " + STARTUP_TIMEOUT);
            }
            Thread.sleep(STATUS_POLL_INTERVAL.toMillis());
        }
    }

    private static String restoreAdvice(Optional<String> restoreFrom) {
        return restoreFrom
                .map(path -> "; if " + path + " cannot be restored (for example after an incompatible change), move it"
                        + " out of the checkpoint directory, or out of the handover folder with its "
                        + HandoverSavepoint.RECORD_FILE)
                .orElse("");
    }

    private static Throwable failureOf(JobClient client) {
        try {
            client.getJobExecutionResult().get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return e;
        }
    }

    public String restHost() {
        return config.restHost();
    }

    public int restPort() {
        return config.restPort();
    }

    public synchronized JobID jobId() {
        if (jobClient == null) {
            throw new IllegalStateException("The fleet pipeline is not started");
        }
        return jobClient.getJobID();
    }

    /**
     * Blocks until the job ends and returns how: {@link JobStatus#FINISHED} after {@link #close()} stopped it with a
     * savepoint, {@link JobStatus#CANCELED} after it cancelled it, {@link JobStatus#FAILED} when Flink gave up
     * restarting it.
     */
    public JobStatus awaitTermination() throws InterruptedException {
        JobClient client;
        synchronized (this) {
            client = requireNonNull(jobClient, "the fleet pipeline is not started");
        }
        try {
            client.getJobExecutionResult().get();
            return JobStatus.FINISHED;
        } catch (ExecutionException e) {
            if (ExceptionUtils.findThrowable(e, JobCancellationException.class).isPresent()) {
                return JobStatus.CANCELED;
            }
            LOG.error("The fleet pipeline job failed and Flink stopped restarting it", e.getCause());
            return JobStatus.FAILED;
        }
    }

    /**
     * Stops the job with a savepoint in the handover folder and records it there; cancels it instead without a
     * handover folder or when that fails (Flink keeps its last completed checkpoint for the next start). Safe to call
     * twice. Not from a JVM shutdown hook: the savepoint's Iceberg commit needs a thread pool the shutdown closes (see
     * {@code StopSignals}); a hook calls {@link #cancel()}.
     *
     * <p>Iceberg's committer commits the savepoint's files when the savepoint completes, before the job finishes (a
     * stop-with-savepoint waits for that notification), and records its checkpoint id; a job restored from it skips
     * that id, so nothing is committed twice. The stack sends SIGTERM and waits 30 s: {@code pipeline.stop-timeout}
     * (20 s) bounds the savepoint so that a cancel still fits.
     */
    public synchronized void stop() throws IOException {
        if (restartReporter != null) {
            restartReporter.close();
        }
        // The result future completes when the job ends; the MiniCluster shuts down with it and answers no more.
        if (jobClient == null || jobClient.getJobExecutionResult().isDone()) {
            return;
        }
        Optional<HandoverSavepoint> handover = handover();
        if (handover.isPresent() && stopWithSavepoint(handover.get())) {
            return;
        }
        cancel();
    }

    /** {@link #stop()}. */
    @Override
    public void close() throws IOException {
        stop();
    }

    /**
     * Cancels the job; Flink keeps its last completed checkpoint for the next start. Nothing to do when it has ended
     * (also when a {@link #stop()} ended it: both hold the same lock, so this waits for a stop under way).
     */
    public synchronized void cancel() throws IOException {
        if (restartReporter != null) {
            restartReporter.close();
        }
        if (jobClient == null || jobClient.getJobExecutionResult().isDone()) {
            return;
        }
        LOG.info("Cancelling the fleet pipeline job {}; its last completed checkpoint is retained", jobId());
        try {
            jobClient.cancel().get(CANCEL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while cancelling the fleet pipeline job", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("Cannot cancel the fleet pipeline job " + jobClient.getJobID(), e);
        }
    }

    /** Whether the job stopped with a savepoint that is recorded as the handover; false leaves it to be cancelled. */
    private boolean stopWithSavepoint(HandoverSavepoint handover) throws IOException {
        String jobId = jobId().toString();
        Duration timeout = config.handover().stopTimeout();
        long started = System.nanoTime();
        LOG.info(
                "Stopping the fleet pipeline job {} with a savepoint in {} (canonical format, for either pipeline mode)",
                jobId,
                handover.directory());
        String location;
        try {
            location = jobClient
                    .stopWithSavepoint(false, handover.targetDirectory(), SavepointFormatType.CANONICAL)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while stopping the fleet pipeline job " + jobId, e);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn(
                    "The fleet pipeline job {} was not stopped with a savepoint ({}; {} allowed); it is cancelled"
                            + " instead, and the next start resumes from its last retained checkpoint if the restore"
                            + " guard finds it safe",
                    jobId,
                    ExceptionUtils.stringifyException(e).lines().findFirst().orElse(e.toString()),
                    timeout);
            if (jobClient.getJobExecutionResult().isDone()) {
                LOG.warn("The fleet pipeline job {} ended while it was being stopped; nothing left to cancel", jobId);
                return true;
            }
            return false;
        }
        RestorePoint savepoint = Savepoints.restorePoint(jobId, location, PipelineMode.EMBEDDED);
        List<Path> replaced = handover.record(savepoint);
        LOG.info(
                "Stopped the fleet pipeline job {} with {} in {} ms; recorded as the handover in {}{}",
                jobId,
                savepoint.describe(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                handover.directory(),
                replaced.isEmpty() ? "" : " (replaced savepoints deleted: " + replaced + ")");
        return true;
    }
}

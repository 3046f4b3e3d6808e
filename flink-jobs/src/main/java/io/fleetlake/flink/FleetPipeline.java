package io.fleetlake.flink;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.flink.runtime.PipelineMetricsReporter;
import io.fleetlake.flink.runtime.RestartReporter;
import io.fleetlake.flink.runtime.RetainedCheckpoints;
import io.fleetlake.flink.sinks.DeadLetterSink;
import io.fleetlake.flink.sinks.IcebergTableSink;
import io.fleetlake.flink.sinks.LatePositionSink;
import io.fleetlake.flink.sinks.RedisCurrentStateSink;
import io.fleetlake.flink.sources.RawPositionsSource;
import io.fleetlake.flink.sources.RouteSource;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.FlinkException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fleet pipeline running on a local MiniCluster in this JVM. {@link #start()} resumes from the newest retained
 * checkpoint when there is one, submits the job and returns once it is running; {@link #close()} cancels it, which
 * retains the last completed checkpoint for the next start.
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
    private JobClient jobClient;
    private RestartReporter restartReporter;

    FleetPipeline(FleetPipelineConfig config, Function<FleetPipelineConfig, FleetPipelineJob> jobFactory) {
        this(config, jobFactory, MetricsEndpointConfig.from(ConfigSource.empty(), "pipeline"));
    }

    FleetPipeline(
            FleetPipelineConfig config,
            Function<FleetPipelineConfig, FleetPipelineJob> jobFactory,
            MetricsEndpointConfig metricsEndpoint) {
        this.config = requireNonNull(config, "config is null");
        this.checkpointDirectory = config.requireCheckpointDirectory();
        this.jobFactory = requireNonNull(jobFactory, "jobFactory is null");
        this.metricsEndpoint = requireNonNull(metricsEndpoint, "metricsEndpoint is null");
    }

    /**
     * The production pipeline: Kafka raw positions and the planning API in; Kafka dead letters,
     * {@code fleet.rejected_positions}, Redis, {@code fleet.positions}, {@code fleet.vehicle_minutes} and Kafka late
     * positions out.
     */
    public static FleetPipeline production(FleetPipelineConfig config) {
        return new FleetPipeline(config, FleetPipeline::productionJob);
    }

    /** The production pipeline, serving its metrics on {@code metricsEndpoint} ({@code pipeline.metrics-port}). */
    public static FleetPipeline production(FleetPipelineConfig config, MetricsEndpointConfig metricsEndpoint) {
        return new FleetPipeline(config, FleetPipeline::productionJob, metricsEndpoint);
    }

    /** The production job; {@link FleetPipelineClusterMain} submits the same one to a Flink cluster. */
    static FleetPipelineJob productionJob(FleetPipelineConfig config) {
        return productionJob(
                config,
                IcebergTableSink.positions(config),
                IcebergTableSink.rejectedPositions(config),
                IcebergTableSink.vehicleMinutes(config));
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
                .currentStateSink(RedisCurrentStateSink.create(config.redisUri()))
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
                .build();
    }

    /** Submits the job and waits until it is running; throws when it fails to get there. */
    public synchronized void start() throws Exception {
        if (jobClient != null) {
            throw new IllegalStateException("The fleet pipeline is already started");
        }
        Files.createDirectories(checkpointDirectory);
        Optional<Path> restoreFrom = RetainedCheckpoints.newest(checkpointDirectory);
        if (restoreFrom.isPresent()) {
            LOG.info(
                    "Resuming from retained checkpoint {}; state of operators retired since it was written ({}), if"
                            + " any, is dropped, and every other operator's state is restored",
                    restoreFrom.get(),
                    FleetPipelineJob.RETIRED_UIDS);
        } else {
            LOG.info(
                    "No retained checkpoint in {}; starting from the consumer group's committed offsets",
                    checkpointDirectory);
        }
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
                config.restHost(), config.restPort(), jobClient.getJobID(), RESTART_POLL_INTERVAL);
        LOG.info(
                "Fleet pipeline running, ready on {}:{} (job {}, checkpoints every {} in {})",
                config.restHost(),
                config.restPort(),
                jobClient.getJobID(),
                config.checkpointInterval(),
                checkpointDirectory);
    }

    private void awaitRunning(Optional<Path> restoreFrom) throws Exception {
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

    private static String restoreAdvice(Optional<Path> restoreFrom) {
        return restoreFrom
                .map(path -> "; if checkpoint " + path + " cannot be restored (for example after an incompatible"
                        + " change), move it out of the checkpoint directory")
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
     * Blocks until the job ends and returns how: {@link JobStatus#CANCELED} after {@link #close()}, {@link
     * JobStatus#FAILED} when Flink gave up restarting it.
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

    /** Cancels the job; Flink keeps its last completed checkpoint for the next start. Safe to call twice. */
    @Override
    public synchronized void close() throws IOException {
        if (restartReporter != null) {
            restartReporter.close();
        }
        // The result future completes when the job ends; the MiniCluster shuts down with it and answers no more.
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
}

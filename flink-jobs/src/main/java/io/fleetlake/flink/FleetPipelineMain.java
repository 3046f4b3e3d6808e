package io.fleetlake.flink;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.runtime.StopSignals;
import io.fleetlake.model.restore.RestoreRefusedException;
import java.io.IOException;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Runs the fleet pipeline on a local MiniCluster until the process is stopped. SIGTERM (the stack's stop) and SIGINT
 * (Ctrl-C) stop the job with a savepoint in {@code pipeline.handover-dir} for the next start in either pipeline mode
 * (see {@link FleetPipeline#stop()}), then the process exits with 143 or 130; a start the restore guard refuses exits
 * with 1 and its reason as the last log line.
 */
@Command(
        name = "fleet-pipeline",
        mixinStandardHelpOptions = true,
        description = "Runs the fleet pipeline (Kafka raw positions and the planning API's routes -> dead letters and"
                + " Iceberg fleet.rejected_positions, Redis current state, Iceberg fleet.positions and"
                + " fleet.vehicle_minutes, Kafka late positions) on a local Flink MiniCluster. Configuration keys:"
                + " pipeline.*, validation.*, enrichment.*")
public final class FleetPipelineMain implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(FleetPipelineMain.class);

    @Mixin
    private ConfigOptions config;

    public static void main(String[] args) {
        // Flink leaves non-daemon threads behind: the process must exit explicitly, also after a failure.
        System.exit(new CommandLine(new FleetPipelineMain()).execute(args));
    }

    @Override
    public Integer call() {
        FleetPipeline pipeline;
        try {
            ConfigSource source = config.load();
            FleetPipelineConfig pipelineConfig = FleetPipelineConfig.from(source);
            LOG.info("Starting the fleet pipeline with {}", pipelineConfig);
            pipeline = FleetPipeline.production(pipelineConfig, MetricsEndpointConfig.from(source, "pipeline"));
            FleetPipeline stopped = pipeline;
            // SIGTERM and Ctrl-C stop the job with a savepoint before the JVM shuts down (see StopSignals: Iceberg's
            // commit of the savepoint needs a thread pool that the shutdown closes); then the process exits.
            StopSignals.install(status -> {
                stop(stopped);
                System.exit(status);
            });
            // Any other way the JVM ends (System.exit after a failure) can only cancel the job; its last checkpoint
            // stays. During a stop the hook waits for it to finish.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> cancel(stopped), "fleet-pipeline-shutdown"));
            pipeline.start();
        } catch (RestoreRefusedException e) {
            // The user's to act on: the message says what was committed, what was refused and what to run. The stack
            // shows the last lines of this log when the start fails, so no stack trace pushes it out of them.
            LOG.error("{}", e.getMessage());
            return 1;
        } catch (Exception e) {
            LOG.error("The fleet pipeline failed to start: {}", e.getMessage(), e);
            return 1;
        }
        try {
            JobStatus status = pipeline.awaitTermination();
            return status == JobStatus.CANCELED || status == JobStatus.FINISHED ? 0 : 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.error("Interrupted while running the fleet pipeline", e);
            return 1;
        }
    }

    private static void stop(FleetPipeline pipeline) {
        try {
            pipeline.stop();
        } catch (IOException e) {
            LOG.error("The fleet pipeline did not stop cleanly", e);
        }
    }

    private static void cancel(FleetPipeline pipeline) {
        try {
            pipeline.cancel();
        } catch (IOException e) {
            LOG.error("The fleet pipeline job could not be cancelled", e);
        }
    }
}

package io.fleetlake.flink;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.runtime.ClusterConfiguration;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.PipelineMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Submits the fleet pipeline to the Flink cluster it is started by: {@code flink run -c
 * io.fleetlake.flink.FleetPipelineClusterMain <job jar> --config pipeline.properties}, the REST API of a session
 * cluster ({@code POST /jars/:id/run}, which runs this main in the JobManager), or the JobManager of an
 * application-mode deployment ({@code standalone-job --job-classname io.fleetlake.flink.FleetPipelineClusterMain}).
 *
 * <p>The job is the one {@link FleetPipelineMain} runs locally. The job sets exactly-once checkpoints every {@value
 * FleetPipelineConfig#CHECKPOINT_INTERVAL} (they are the Iceberg commit interval), the restart strategy ({@code pipeline.restart-*}: exponential delay, never giving
 * up), the buffer timeout ({@value FleetPipelineConfig#BUFFER_TIMEOUT}), its serialization (no Kryo, object reuse), an
 * explicit uid on every operator and the maximum parallelism, and the parallelism {@value
 * FleetPipelineConfig#PARALLELISM} when that key is set;
 * everything else comes from the cluster's configuration: checkpoint storage ({@code execution.checkpointing.dir}),
 * state backend ({@code state.backend.type}) and retention. Without {@code pipeline.parallelism} the submission decides
 * the parallelism ({@code flink run -p}, the REST API's {@code parallelism}, else {@code parallelism.default}). The
 * checkpoint or savepoint to restore is an argument of one submission ({@code flink run -s}, the REST API's
 * {@code savepointPath}), never part of a configuration that outlives it.
 * {@value FleetPipelineConfig#CHECKPOINT_DIR} is not used.
 *
 * <p>Unlike the other mains this one never calls {@code System.exit}: in application mode it runs inside the
 * JobManager's JVM. A failure is thrown to Flink, which reports it (the {@code flink} client prints it; in application
 * mode the JobManager fails the application).
 */
@Command(
        name = "fleet-pipeline-cluster",
        mixinStandardHelpOptions = true,
        description = "Submits the fleet pipeline job to the Flink cluster that runs this main class (flink run, or"
                + " application mode). Checkpoint storage, state backend and restore come from the cluster's"
                + " configuration. Configuration keys: pipeline.*, validation.*, enrichment.*")
public final class FleetPipelineClusterMain {
    private static final Logger LOG = LoggerFactory.getLogger(FleetPipelineClusterMain.class);

    @Mixin
    private ConfigOptions config;

    public static void main(String[] args) throws Exception {
        FleetPipelineClusterMain command = new FleetPipelineClusterMain();
        CommandLine commandLine = new CommandLine(command);
        // Parsed by hand instead of CommandLine.execute, which would print a failure and return an exit code; Flink
        // needs the exception itself.
        CommandLine.ParseResult parsed = commandLine.parseArgs(args);
        if (CommandLine.printHelpIfRequested(parsed)) {
            return;
        }
        command.submit();
    }

    private void submit() throws Exception {
        ConfigSource source = config.load();
        FleetPipelineConfig pipelineConfig = FleetPipelineConfig.from(source);
        boolean parallelismConfigured =
                source.string(FleetPipelineConfig.PARALLELISM).isPresent();
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        if (parallelismConfigured) {
            configure(environment, pipelineConfig);
        } else {
            configureKeepingTheSubmittedParallelism(environment, pipelineConfig);
        }
        LOG.info(
                "Submitting the fleet pipeline to the Flink cluster at parallelism {} ({}) with {}",
                environment.getParallelism(),
                parallelismConfigured
                        ? FleetPipelineConfig.PARALLELISM
                        : "the submission's: flink run -p, the REST API's parallelism, or parallelism.default",
                pipelineConfig);
        FleetPipeline.productionJob(pipelineConfig, PipelineMode.CLUSTER).addTo(environment);
        environment.execute(PipelineMetricNames.JOB_NAME);
    }

    /**
     * What the job itself decides ({@link ClusterConfiguration#jobSettings}: checkpoints, restart strategy, buffer
     * timeout, serialization, uids, maximum parallelism) and its parallelism, {@code pipeline.parallelism}; the rest is
     * the cluster's configuration.
     */
    static void configure(StreamExecutionEnvironment environment, FleetPipelineConfig config) {
        configureKeepingTheSubmittedParallelism(environment, config);
        environment.setParallelism(config.parallelism());
    }

    /**
     * {@link #configure} without setting the parallelism: when {@code pipeline.parallelism} is not set, the submission
     * decides it ({@code flink run -p}, the {@code parallelism} of the REST API's {@code /jars/:id/run}, else the
     * cluster's {@code parallelism.default}), which is how a job is rescaled from a savepoint.
     */
    static void configureKeepingTheSubmittedParallelism(
            StreamExecutionEnvironment environment, FleetPipelineConfig config) {
        environment.configure(ClusterConfiguration.jobSettings(new Configuration(), config));
    }
}

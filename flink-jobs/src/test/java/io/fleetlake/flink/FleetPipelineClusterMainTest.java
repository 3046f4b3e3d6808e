package io.fleetlake.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.config.FleetPipelineConfig;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

class FleetPipelineClusterMainTest {
    @Test
    void jobSetsExactlyOnceCheckpointsAtTheConfiguredIntervalAndItsParallelism() {
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment();
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.of(Map.of(
                FleetPipelineConfig.CHECKPOINT_INTERVAL, "45s",
                FleetPipelineConfig.PARALLELISM, "3")));

        FleetPipelineClusterMain.configure(environment, config);

        assertThat(environment.getCheckpointConfig().getCheckpointInterval()).isEqualTo(45_000);
        assertThat(environment.getCheckpointConfig().getCheckpointingConsistencyMode())
                .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        assertThat(environment.getParallelism()).isEqualTo(3);
        assertThat(environment.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                .as("the job's own restart strategy, also in a Flink cluster")
                .isEqualTo("exponential-delay");
        assertThat(environment
                        .getConfiguration()
                        .get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(environment.getConfig().getSerializerConfig().hasGenericTypesDisabled())
                .as("no Kryo")
                .isTrue();
        assertThat(environment.getConfig().isObjectReuseEnabled()).isTrue();
        assertThat(environment.getBufferTimeout())
                .as("no job-wide timer: the job sets pipeline.buffer-timeout on the exchange towards Redis")
                .isEqualTo(-1);
        assertThat(config.checkpointDirectory())
                .as("the cluster's checkpoint storage is used")
                .isEmpty();
    }

    @Test
    void withoutPipelineParallelismTheSubmissionDecidesItSoThatASavepointCanBeRestoredAtAnother() {
        Configuration submitted = new Configuration();
        submitted.set(CoreOptions.DEFAULT_PARALLELISM, 4);
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(submitted);

        FleetPipelineClusterMain.configureKeepingTheSubmittedParallelism(
                environment, FleetPipelineConfig.from(ConfigSource.empty()));

        assertThat(environment.getParallelism()).isEqualTo(4);
        assertThat(environment.getMaxParallelism())
                .as("fixed, so that every rescale restores the same key groups")
                .isEqualTo(128);
        assertThat(environment.getConfiguration().get(PipelineOptions.AUTO_GENERATE_UIDS))
                .as("an operator without an explicit uid is refused")
                .isFalse();
    }

    @Test
    void helpSubmitsNothing() throws Exception {
        FleetPipelineClusterMain.main(new String[] {"--help"});
    }

    @Test
    void invalidConfigurationIsThrownToFlinkInsteadOfExitingTheJvm() {
        assertThatThrownBy(() -> FleetPipelineClusterMain.main(new String[] {"--set", "pipeline.parallelism=0"}))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipeline.parallelism = 0");
    }

    @Test
    void theLocalRunnerStillRequiresItsCheckpointDirectory() {
        FleetPipelineConfig config = FleetPipelineConfig.from(ConfigSource.empty());

        assertThatThrownBy(() -> FleetPipeline.production(config))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Missing required configuration pipeline.checkpoint-dir");
    }
}

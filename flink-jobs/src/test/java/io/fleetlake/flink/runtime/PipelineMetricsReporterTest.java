package io.fleetlake.flink.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.MetricsEndpointConfig;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class PipelineMetricsReporterTest {
    @Test
    void aMetricsPortTurnsOnTheFleetReporterOnThatAddress() {
        Configuration configuration = PipelineMetricsReporter.apply(
                new Configuration(),
                MetricsEndpointConfig.from(
                        ConfigSource.of(Map.of("pipeline.metrics-host", "127.0.0.2", "pipeline.metrics-port", "18082")),
                        "pipeline"));

        assertThat(configuration.toMap())
                .containsEntry(
                        "metrics.reporter.fleet.factory.class",
                        "io.fleetlake.metrics.flink.FleetPrometheusReporterFactory")
                .containsEntry("metrics.reporter.fleet.host", "127.0.0.2")
                .containsEntry("metrics.reporter.fleet.port", "18082");
    }

    @Test
    void withoutAPortNoReporterIsConfigured() {
        Configuration configuration = PipelineMetricsReporter.apply(
                new Configuration(), MetricsEndpointConfig.from(ConfigSource.empty(), "pipeline"));

        assertThat(configuration.toMap()).isEmpty();
    }
}

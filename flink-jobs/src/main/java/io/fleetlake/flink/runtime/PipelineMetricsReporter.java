package io.fleetlake.flink.runtime;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.MetricsEndpointConfig;
import io.fleetlake.metrics.flink.FleetPrometheusReporter;
import io.fleetlake.metrics.flink.FleetPrometheusReporterFactory;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;

/**
 * Turns on the fleet metric reporter (module flink-metrics) in the pipeline's own MiniCluster when {@code
 * pipeline.metrics-port} is set: the pipeline's counters, backpressure, restarts and checkpoints as {@code
 * fleet_pipeline_*} on {@code http://<pipeline.metrics-host>:<port>/metrics}. A Flink cluster configures the same
 * reporter in its own configuration ({@code metrics.reporter.fleet.*}).
 */
public final class PipelineMetricsReporter {
    /** The reporter's name in Flink's {@code metrics.reporter.<name>.*} keys. */
    public static final String NAME = "fleet";

    private static final String PREFIX = "metrics.reporter." + NAME + ".";

    private PipelineMetricsReporter() {}

    /** Adds the reporter to the MiniCluster's configuration when the endpoint is enabled; otherwise changes nothing. */
    public static Configuration apply(Configuration configuration, MetricsEndpointConfig endpoint) {
        requireNonNull(configuration, "configuration is null");
        requireNonNull(endpoint, "endpoint is null");
        endpoint.port().ifPresent(port -> {
            configuration.set(key("factory.class"), FleetPrometheusReporterFactory.class.getName());
            configuration.set(key(FleetPrometheusReporter.HOST), endpoint.host());
            configuration.set(key(FleetPrometheusReporter.PORT), Integer.toString(port));
        });
        return configuration;
    }

    private static ConfigOption<String> key(String suffix) {
        return ConfigOptions.key(PREFIX + suffix).stringType().noDefaultValue();
    }
}

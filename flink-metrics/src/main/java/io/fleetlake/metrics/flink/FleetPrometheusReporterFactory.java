package io.fleetlake.metrics.flink;

import java.util.Properties;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/** Creates the {@link FleetPrometheusReporter}; found by Flink through {@code META-INF/services}. */
public final class FleetPrometheusReporterFactory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return new FleetPrometheusReporter();
    }
}

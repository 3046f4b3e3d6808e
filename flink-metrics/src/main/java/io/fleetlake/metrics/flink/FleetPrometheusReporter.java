package io.fleetlake.metrics.flink;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the pipeline's metrics ({@link PipelineMetricMapping}) in the Prometheus text format on {@code
 * http://<host>:<port>/metrics}. Configured like any Flink reporter:
 *
 * <pre>
 * metrics.reporter.fleet.factory.class: io.fleetlake.metrics.flink.FleetPrometheusReporterFactory
 * metrics.reporter.fleet.host: 127.0.0.1
 * metrics.reporter.fleet.port: 9249
 * </pre>
 */
public final class FleetPrometheusReporter implements MetricReporter {
    public static final String HOST = "host";
    public static final String PORT = "port";
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9249;

    private static final Logger LOG = LoggerFactory.getLogger(FleetPrometheusReporter.class);

    private final FlinkMetricsCollector collector = new FlinkMetricsCollector();
    private HTTPServer server;

    @Override
    public void open(MetricConfig config) {
        String host = config.getString(HOST, DEFAULT_HOST);
        int port = config.getInteger(PORT, DEFAULT_PORT);
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(collector);
        try {
            server = HTTPServer.builder()
                    .hostname(host)
                    .port(port)
                    .registry(registry)
                    .buildAndStart();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serve the pipeline's metrics on " + host + ":" + port, e);
        }
        LOG.info("Pipeline metrics on http://{}:{}/metrics", host, server.getPort());
    }

    /** The bound port; differs from the configured one when that was 0. */
    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        String logicalScope;
        try {
            logicalScope = LogicalScopeProvider.castFrom(group).getLogicalScope(input -> input, '.');
        } catch (IllegalStateException e) {
            // Groups without a logical scope are not among the mapped ones.
            LOG.debug("Metric {} of a group without a logical scope is not served", metricName);
            return;
        }
        PipelineMetricMapping.map(logicalScope, metricName, group.getAllVariables())
                .ifPresent(series -> collector.add(metric, series));
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        collector.remove(metric);
    }
}

package io.fleetlake.metrics.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reporter as Flink drives it: metrics added and removed, served over HTTP in the text format. */
class FleetPrometheusReporterTest {
    private final FleetPrometheusReporter reporter = new FleetPrometheusReporter();

    @AfterEach
    void close() {
        reporter.close();
    }

    @Test
    void servesTheMappedMetricsAddsUpSubtasksOfOneSeriesAndForgetsRemovedOnes() throws Exception {
        MetricConfig config = new MetricConfig();
        config.setProperty(FleetPrometheusReporter.HOST, "127.0.0.1");
        config.setProperty(FleetPrometheusReporter.PORT, "0");
        reporter.open(config);
        SimpleCounter read = new SimpleCounter();
        read.inc(42);
        SimpleCounter rejected = new SimpleCounter();
        rejected.inc(3);
        Gauge<Long> checkpointMillis = () -> 1500L;
        SimpleCounter unmapped = new SimpleCounter();
        reporter.notifyOfAddedMetric(read, "recordsRead", group("taskmanager.job.task.operator", "0"));
        reporter.notifyOfAddedMetric(
                rejected, "OUTSIDE_REGION", group("taskmanager.job.task.operator.rejectionReason", "0"));
        reporter.notifyOfAddedMetric(checkpointMillis, "lastCheckpointDuration", group("jobmanager.job", "0"));
        reporter.notifyOfAddedMetric(unmapped, "numBytesIn", group("taskmanager.job.task.operator", "0"));

        String body = scrape();

        assertThat(body)
                .contains("fleet_pipeline_records_read_total{operator=\"decode-positions\",subtask=\"0\"} 42.0")
                .contains(
                        "fleet_pipeline_records_rejected_total{operator=\"decode-positions\",reason=\"OUTSIDE_REGION\","
                                + "subtask=\"0\"} 3.0")
                .contains("fleet_pipeline_last_checkpoint_duration_seconds 1.5")
                .doesNotContain("numBytesIn");

        reporter.notifyOfRemovedMetric(read, "recordsRead", group("taskmanager.job.task.operator", "0"));

        assertThat(scrape()).doesNotContain("fleet_pipeline_records_read_total");
    }

    private String scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + reporter.port() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static MetricGroup group(String logicalScope, String subtask) {
        return new ScopedGroup(logicalScope, Map.of("<operator_name>", "decode-positions", "<subtask_index>", subtask));
    }

    /** A metric group with a logical scope and variables, as Flink's own groups have. */
    private static final class ScopedGroup extends UnregisteredMetricsGroup implements LogicalScopeProvider {
        private final String logicalScope;
        private final Map<String, String> variables;

        ScopedGroup(String logicalScope, Map<String, String> variables) {
            this.logicalScope = logicalScope;
            this.variables = variables;
        }

        @Override
        public Map<String, String> getAllVariables() {
            return variables;
        }

        @Override
        public String getLogicalScope(CharacterFilter filter) {
            return logicalScope;
        }

        @Override
        public String getLogicalScope(CharacterFilter filter, char delimiter) {
            return logicalScope;
        }

        @Override
        public MetricGroup getWrappedMetricGroup() {
            return this;
        }
    }
}

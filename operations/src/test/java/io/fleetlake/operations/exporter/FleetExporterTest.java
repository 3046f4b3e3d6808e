package io.fleetlake.operations.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.operations.health.HealthEvaluator;
import io.fleetlake.operations.health.HealthSnapshot;
import io.fleetlake.operations.health.HealthThresholds;
import io.fleetlake.operations.health.SnapshotFixtures;
import io.fleetlake.operations.inspect.PrometheusText;
import io.fleetlake.operations.inspect.PrometheusText.Sample;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exporter's series as Prometheus reads them, from a hand-built snapshot of a healthy stack. */
class FleetExporterTest {
    private final HealthSnapshot snapshot = SnapshotFixtures.healthy();
    private final List<Sample> samples = scrape(FleetExporter.metrics(
            snapshot,
            new HealthEvaluator(HealthThresholds.from(ConfigSource.empty())).evaluate(snapshot),
            Map.of("OUTSIDE_REGION", 7L, "SPEED_TOO_HIGH", 2L),
            true));

    @Test
    void lagPerGroupAndPartitionInRecordsAndSeconds() {
        assertThat(value(
                        "fleet_kafka_consumer_lag_records",
                        Map.of("group", "fleet-pipeline", "topic", "gps.raw.positions", "partition", "0")))
                .isEqualTo(120);
        assertThat(value(
                        "fleet_kafka_consumer_lag_seconds",
                        Map.of("group", "fleet-pipeline", "topic", "gps.raw.positions", "partition", "0")))
                .isEqualTo(4.0);
    }

    @Test
    void commitTimesDeadLettersRedisConnectorAndPipeline() {
        assertThat(value("fleet_iceberg_last_commit_timestamp_seconds", Map.of("table", "fleet.positions")))
                .isEqualTo(snapshot.takenAt().minusSeconds(5).getEpochSecond());
        assertThat(value("fleet_dlq_records_total", Map.of("reason", "OUTSIDE_REGION")))
                .isEqualTo(7);
        assertThat(value("fleet_redis_last_seen_oldest_age_seconds", Map.of())).isEqualTo(180);
        assertThat(value("fleet_redis_last_seen_median_age_seconds", Map.of())).isEqualTo(6);
        assertThat(value("fleet_redis_memory_used_bytes", Map.of())).isEqualTo(200_000_000);
        assertThat(value("fleet_redis_memory_max_bytes", Map.of())).isEqualTo(268_435_456);
        assertThat(value("fleet_redis_oom_refusals_total", Map.of())).isEqualTo(4);
        assertThat(value("fleet_connect_connector_state", Map.of("connector", "mqtt-positions", "state", "RUNNING")))
                .isEqualTo(1);
        assertThat(value("fleet_connect_connector_state", Map.of("connector", "mqtt-positions", "state", "PAUSED")))
                .isZero();
        assertThat(value(
                        "fleet_connect_task_state",
                        Map.of("connector", "mqtt-positions", "task", "0", "state", "RUNNING")))
                .isEqualTo(1);
        assertThat(value("fleet_pipeline_job_running", Map.of())).isEqualTo(1);
        assertThat(value("fleet_pipeline_checkpoint_interval_seconds", Map.of()))
                .isEqualTo(10);
        assertThat(value("fleet_component_up", Map.of("component", "redis"))).isEqualTo(1);
        assertThat(value("fleet_health_checks", Map.of("status", "FAIL"))).isZero();
    }

    @Test
    void deadLettersAreLeftOutWhenTheTopicCouldNotBeRead() {
        List<Sample> withoutDeadLetters = scrape(FleetExporter.metrics(
                snapshot,
                new HealthEvaluator(HealthThresholds.from(ConfigSource.empty())).evaluate(snapshot),
                Map.of("OUTSIDE_REGION", 7L),
                false));

        assertThat(withoutDeadLetters).extracting(Sample::name).doesNotContain("fleet_dlq_records_total");
    }

    private double value(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(sample -> sample.name().equals(name) && sample.labels().equals(labels))
                .mapToDouble(Sample::value)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No sample " + name + labels + " in " + samples));
    }

    private static List<Sample> scrape(MetricSnapshots snapshots) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, snapshots, EscapingScheme.DEFAULT);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
    }
}

package io.fleetlake.operations.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.connect.client.BasicCredentials;
import io.fleetlake.operations.health.HealthThresholds;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExporterConfigTest {
    private static final Map<String, String> REQUIRED = Map.of(
            ExporterConfig.KAFKA_BOOTSTRAP_SERVERS, "kafka:9092",
            ExporterConfig.REDIS_URI, "redis://:secret@redis:6379",
            ExporterConfig.CATALOG_URI, "http://catalog:8181",
            ExporterConfig.CONNECT_URI, "http://connect:8083",
            ExporterConfig.FLINK_REST_URI, "http://flink-jobmanager:8081");

    @Test
    void theFlinkClientCertificateIsAllOrNothing() {
        Map<String, String> partial = new HashMap<>(REQUIRED);
        partial.put("exporter.flink-rest-key-store", "/data/flink-cluster/tls/rest-keystore.p12");
        partial.put("exporter.flink-rest-store-password", "not-printed");

        assertThatThrownBy(() -> ExporterConfig.from(ConfigSource.of(partial)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("exporter.flink-rest-trust-store")
                .hasMessageNotContaining("not-printed");
    }

    @Test
    void defaults() {
        ExporterConfig config = ExporterConfig.from(ConfigSource.of(REQUIRED));

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(9400);
        assertThat(config.interval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.sources().consumerGroups()).containsExactly("fleet-pipeline");
        assertThat(config.sources().connectorName()).isEqualTo("mqtt-positions");
        assertThat(config.sources().maintenanceMetricsUri()).isEmpty();
        assertThat(config.sources().mqttMetricsUri()).isEmpty();
        assertThat(config.sources().probes()).isEmpty();
        assertThat(config.sources().connectCredentials()).as("anonymous").isEmpty();
        assertThat(config.sources().kafkaClientSecurity()).as("no Kafka login").isEmpty();
        assertThat(config.thresholds()).isEqualTo(HealthThresholds.from(ConfigSource.empty()));
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.putAll(Map.of(
                ExporterConfig.HOST, "0.0.0.0",
                ExporterConfig.PORT, "9401",
                ExporterConfig.INTERVAL, "30s",
                ExporterConfig.CONSUMER_GROUPS, "fleet-pipeline, audit",
                ExporterConfig.CONNECTOR_NAME, "mqtt-other",
                ExporterConfig.CONNECT_PASSWORD, "monitor-password-0123456789",
                ExporterConfig.MAINTENANCE_METRICS_URI, "http://table-maintenance:9464/metrics",
                ExporterConfig.MQTT_METRICS_URI, "http://mosquitto-exporter:9234/metrics",
                ExporterConfig.PROBES, "s3=http://minio:9000/minio/health/live, mqtt=tcp://mosquitto:1883"));

        ExporterConfig config = ExporterConfig.from(ConfigSource.of(values));

        assertThat(config.host()).isEqualTo("0.0.0.0");
        assertThat(config.port()).isEqualTo(9401);
        assertThat(config.interval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.sources().consumerGroups()).containsExactly("fleet-pipeline", "audit");
        assertThat(config.sources().connectorName()).isEqualTo("mqtt-other");
        assertThat(config.sources().connectCredentials())
                .contains(new BasicCredentials("monitor", "monitor-password-0123456789"));
        assertThat(config.toString()).doesNotContain("monitor-password-0123456789");
        assertThat(config.sources().maintenanceMetricsUri())
                .contains(URI.create("http://table-maintenance:9464/metrics"));
        assertThat(config.sources().mqttMetricsUri())
                .isEqualTo(Optional.of(URI.create("http://mosquitto-exporter:9234/metrics")));
        assertThat(List.copyOf(config.sources().probes().keySet())).containsExactly("s3", "mqtt");
    }

    @Test
    void theKafkaLoginReachesEveryKafkaClientAndIsNotPrinted() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put("exporter.kafka-username", "fleet-monitor");
        values.put("exporter.kafka-password", "kafka-monitor-password");

        ExporterConfig config = ExporterConfig.from(ConfigSource.of(values));

        assertThat(config.sources().kafkaClientSecurity())
                .containsEntry("security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"fleet-monitor\" password=\"kafka-monitor-password\";");
        assertThat(config.toString()).contains("fleet-monitor").doesNotContain("kafka-monitor-password");
    }

    @Test
    void aMissingServerIsNamedByItsKey() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.remove(ExporterConfig.CATALOG_URI);

        assertThatThrownBy(() -> ExporterConfig.from(ConfigSource.of(values)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(ExporterConfig.CATALOG_URI);
    }

    @Test
    void aProbeWithAnUnknownSchemeIsRefused() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put(ExporterConfig.PROBES, "s3=ftp://minio:21");

        assertThatThrownBy(() -> ExporterConfig.from(ConfigSource.of(values)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(ExporterConfig.PROBES)
                .hasMessageContaining("ftp://minio:21");
    }

    @Test
    void theRedisPasswordIsNotPrinted() {
        assertThat(ExporterConfig.from(ConfigSource.of(REQUIRED)).toString())
                .contains("redis://***@redis:6379")
                .doesNotContain("secret");
    }
}

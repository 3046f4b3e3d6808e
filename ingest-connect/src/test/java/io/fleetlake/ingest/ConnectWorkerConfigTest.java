package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.PasswordHash;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ConnectWorkerConfigTest {
    private static final String ADMIN_PASSWORD = "admin-password-0123456789";
    private static final String MONITOR_PASSWORD = "monitor-password-0123456789";

    @Test
    void defaults() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of()));

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8083);
        assertThat(config.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(config.groupId()).isEqualTo("fleet-ingest");
        assertThat(config.connectorName()).isEqualTo("mqtt-positions");
        assertThat(config.tasks()).isEqualTo(1);
        assertThat(config.startupTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.healthMaxPendingAge()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.supervisionInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.compressionType()).isEqualTo("none");
        assertThat(config.connectorSettings()).isEmpty();
        assertThat(config.adminCredentials().user()).isEqualTo("admin");
        assertThat(config.monitorCredentials().user()).isEqualTo("monitor");
        assertThat(config.kafkaCredentials()).isEmpty();
        assertThat(config.restMaxRequestBytes()).isEqualTo(1024 * 1024);
        assertThat(config.restMaxConcurrentRequests()).isEqualTo(32);
    }

    @Test
    void theRestApiNeedsBothPasswords() {
        assertThatThrownBy(() -> ConnectWorkerConfig.from(ConfigSource.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.rest-admin-password: not set")
                .hasMessageContaining("FLEET_CONNECT_REST_ADMIN_PASSWORD");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(
                        ConfigSource.of(Map.of("connect.rest-admin-password", ADMIN_PASSWORD))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.rest-monitor-password: not set");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(ConfigSource.of(Map.of(
                        "connect.rest-admin-password", "short", "connect.rest-monitor-password", MONITOR_PASSWORD))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("shorter than 16 characters")
                .hasMessageNotContaining("short'");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(ConfigSource.of(Map.of(
                        "connect.rest-admin-password",
                        ADMIN_PASSWORD,
                        "connect.rest-monitor-password",
                        ADMIN_PASSWORD))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("a secret of its own");
    }

    @Test
    void theMqttPasswordIsAReferenceNeverTheValue() {
        assertThatThrownBy(() -> ConnectWorkerConfig.from(
                        source(Map.of("mqtt.username", "ingest", "mqtt.password", "secret-value"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.password")
                .hasMessageContaining("${file:")
                .hasMessageContaining("${env:")
                .hasMessageNotContaining("secret-value");

        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of(
                "mqtt.username",
                "ingest",
                "mqtt.password",
                ConnectWorkerConfig.fileReference(Path.of("/data/secrets/mqtt.properties"), "fleet-ingest"))));

        assertThat(config.connectorProperties())
                .containsEntry("mqtt.password", "${file:/data/secrets/mqtt.properties:fleet-ingest}");
    }

    @Test
    void theWorkerGetsOnlyHashesOfTheRestPasswords() {
        Map<String, String> properties =
                ConnectWorkerConfig.from(source(Map.of())).workerProperties();

        assertThat(properties.get("fleet.ingest.rest-admin-hash")).startsWith("$7$");
        assertThat(new PasswordHash(properties.get("fleet.ingest.rest-admin-hash")).matches(ADMIN_PASSWORD))
                .isTrue();
        assertThat(new PasswordHash(properties.get("fleet.ingest.rest-monitor-hash")).matches(MONITOR_PASSWORD))
                .isTrue();
        assertThat(properties.values()).doesNotContain(ADMIN_PASSWORD, MONITOR_PASSWORD);
    }

    @Test
    void fullMapping() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.ofEntries(
                Map.entry("connect.host", "127.0.0.2"),
                Map.entry("connect.port", "18083"),
                Map.entry("connect.bootstrap-servers", "127.0.0.1:19092"),
                Map.entry("connect.group-id", "ingest-test"),
                Map.entry("connect.connector-name", "positions"),
                Map.entry("connect.tasks", "2"),
                Map.entry("connect.startup-timeout", "30s"),
                Map.entry("connect.health-max-pending-age", "90s"),
                Map.entry("connect.supervision-interval", "2s"),
                Map.entry("connect.compression-type", "lz4"),
                Map.entry("connect.max-record-size", "500000"),
                Map.entry("mqtt.server-uri", "tcp://127.0.0.1:11883"),
                Map.entry("kafka.topic", "raw"),
                Map.entry("unrelated.key", "ignored"))));

        assertThat(config.host()).isEqualTo("127.0.0.2");
        assertThat(config.port()).isEqualTo(18083);
        assertThat(config.bootstrapServers()).isEqualTo("127.0.0.1:19092");
        assertThat(config.groupId()).isEqualTo("ingest-test");
        assertThat(config.connectorName()).isEqualTo("positions");
        assertThat(config.tasks()).isEqualTo(2);
        assertThat(config.startupTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.healthMaxPendingAge()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.supervisionInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.compressionType()).isEqualTo("lz4");
        assertThat(config.connectorSettings())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "mqtt.server-uri", "tcp://127.0.0.1:11883",
                        "kafka.topic", "raw",
                        "connect.max-record-size", "500000"));
        assertThat(config.workerProperties())
                .containsEntry("producer.max.request.size", "500000")
                .containsEntry("producer.compression.type", "lz4");
    }

    @Test
    void connectorKeysAreReadFromTheEnvironment() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of())
                .withEnvironment(Map.of(
                        "FLEET_MQTT_SERVER_URI", "tcp://10.0.0.1:1883", "FLEET_MQTT_PASSWORD", "${env:MQTT_PASSWORD}"))
                .withOverrides(Map.of("mqtt.username", "ingest"), "test"));

        assertThat(config.connectorSettings())
                .containsEntry("mqtt.server-uri", "tcp://10.0.0.1:1883")
                .containsEntry("mqtt.username", "ingest")
                .containsEntry("mqtt.password", "${env:MQTT_PASSWORD}");
    }

    @Test
    void workerProperties() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of(
                "connect.host", "127.0.0.1",
                "connect.port", "18083",
                "connect.bootstrap-servers", "127.0.0.1:19092",
                "connect.group-id", "ingest-test")));

        Map<String, String> properties = new TreeMap<>(config.workerProperties());
        assertThat(properties.remove("fleet.ingest.rest-admin-hash")).isNotNull();
        assertThat(properties.remove("fleet.ingest.rest-monitor-hash")).isNotNull();
        assertThat(properties)
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("bootstrap.servers", "127.0.0.1:19092"),
                        Map.entry("group.id", "ingest-test"),
                        Map.entry("listeners", "http://127.0.0.1:18083"),
                        Map.entry("config.storage.topic", "ingest-test-configs"),
                        Map.entry("offset.storage.topic", "ingest-test-offsets"),
                        Map.entry("status.storage.topic", "ingest-test-status"),
                        Map.entry("config.storage.replication.factor", "1"),
                        Map.entry("offset.storage.replication.factor", "1"),
                        Map.entry("status.storage.replication.factor", "1"),
                        Map.entry("key.converter", "org.apache.kafka.connect.storage.StringConverter"),
                        Map.entry("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                        Map.entry("header.converter", "org.apache.kafka.connect.storage.StringConverter"),
                        Map.entry("exactly.once.source.support", "disabled"),
                        Map.entry("offset.flush.interval.ms", "1000"),
                        Map.entry("plugin.discovery", "service_load"),
                        Map.entry("scheduled.rebalance.max.delay.ms", "0"),
                        Map.entry("producer.enable.idempotence", "true"),
                        Map.entry("producer.acks", "all"),
                        Map.entry("producer.max.in.flight.requests.per.connection", "5"),
                        Map.entry("producer.linger.ms", "10"),
                        Map.entry("producer.batch.size", "262144"),
                        Map.entry("producer.max.request.size", "1000000"),
                        Map.entry("producer.compression.type", "none"),
                        Map.entry(
                                "rest.extension.classes",
                                "io.fleetlake.ingest.ConnectRestSecurityExtension,"
                                        + "io.fleetlake.ingest.IngestHealthRestExtension"),
                        Map.entry("config.providers", "file,env"),
                        Map.entry(
                                "config.providers.file.class",
                                "org.apache.kafka.common.config.provider.FileConfigProvider"),
                        Map.entry(
                                "config.providers.env.class",
                                "org.apache.kafka.common.config.provider.EnvVarConfigProvider"),
                        Map.entry("fleet.ingest.rest-max-request-bytes", "1048576"),
                        Map.entry("fleet.ingest.rest-max-concurrent-requests", "32"),
                        Map.entry("fleet.ingest.connector-name", "mqtt-positions"),
                        Map.entry("fleet.ingest.health-max-pending-age-ms", "60000")));
    }

    @Test
    void aKafkaLoginReachesTheWorkersOwnClientsAndThoseItMakesForConnectors() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of(
                "connect.kafka-username", "fleet-connect", "connect.kafka-password", "kafka-password-0123456789")));

        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"fleet-connect\""
                + " password=\"kafka-password-0123456789\";";
        Map<String, String> properties = config.workerProperties();
        for (String prefix : new String[] {"", "producer.", "consumer.", "admin."}) {
            assertThat(properties)
                    .as(prefix)
                    .containsEntry(prefix + "security.protocol", "SASL_PLAINTEXT")
                    .containsEntry(prefix + "sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry(prefix + "sasl.jaas.config", jaas);
        }
        assertThat(config.toString()).contains("fleet-connect").doesNotContain("kafka-password-0123456789");
    }

    @Test
    void connectorProperties() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(source(Map.of(
                "connect.tasks", "3", "mqtt.server-uri", "tcp://127.0.0.1:11883", "mqtt.queue-capacity", "100")));

        assertThat(config.connectorProperties())
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("connector.class", "io.fleetlake.ingest.MqttSourceConnector"),
                        Map.entry("tasks.max", "3"),
                        Map.entry("key.converter", "org.apache.kafka.connect.storage.StringConverter"),
                        Map.entry("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                        Map.entry("header.converter", "org.apache.kafka.connect.storage.StringConverter"),
                        Map.entry("errors.tolerance", "all"),
                        Map.entry("errors.log.enable", "true"),
                        Map.entry("topic.creation.default.partitions", "-1"),
                        Map.entry("topic.creation.default.replication.factor", "-1"),
                        Map.entry("mqtt.server-uri", "tcp://127.0.0.1:11883"),
                        Map.entry("mqtt.queue-capacity", "100")));
    }

    @Test
    void invalidConnectorSettingFailsAtConstruction() {
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("mqtt.server-uri", "ftp://x"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Invalid connector configuration")
                .hasMessageContaining("mqtt.server-uri")
                .hasMessageContaining("FLEET_MQTT_SERVER_URI");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("mqtt.queue-capacity", "-1"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.queue-capacity");
    }

    @Test
    void invalidWorkerSettingsNameTheKeyAndTheVariable() {
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.tasks", "0"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.tasks")
                .hasMessageContaining("FLEET_CONNECT_TASKS");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.group-id", "a/b"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.group-id");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.startup-timeout", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.startup-timeout");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.port", "70000"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.port");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.health-max-pending-age", "500ms"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.health-max-pending-age");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.supervision-interval", "10ms"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.supervision-interval");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.compression-type", "brotli"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.compression-type")
                .hasMessageContaining("one of none, gzip, snappy, lz4, zstd");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.rest-max-request-bytes", "100"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.rest-max-request-bytes")
                .hasMessageContaining("at least 1024 bytes");
        assertThatThrownBy(() -> ConnectWorkerConfig.from(source(Map.of("connect.rest-max-concurrent-requests", "0"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("connect.rest-max-concurrent-requests");
    }

    @Test
    void toStringHidesThePasswords() {
        ConnectWorkerConfig config = ConnectWorkerConfig.from(
                source(Map.of("mqtt.username", "ingest", "mqtt.password", "${env:SECRET_VALUE}")));

        assertThat(config.toString())
                .contains("mqtt.username=ingest")
                .doesNotContain("SECRET_VALUE", ADMIN_PASSWORD, MONITOR_PASSWORD);
    }

    /** {@code values} with the two REST passwords every worker needs. */
    private static ConfigSource source(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put("connect.rest-admin-password", ADMIN_PASSWORD);
        all.put("connect.rest-monitor-password", MONITOR_PASSWORD);
        return ConfigSource.of(all);
    }
}

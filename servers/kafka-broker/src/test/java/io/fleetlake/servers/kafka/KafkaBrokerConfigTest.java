package io.fleetlake.servers.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaBrokerConfigTest {
    @Test
    void defaults() {
        KafkaBrokerConfig config = KafkaBrokerConfig.from(ConfigSource.of(Map.of("kafka.data-dir", "/var/kafka")));

        assertThat(config)
                .isEqualTo(new KafkaBrokerConfig(
                        "127.0.0.1",
                        9092,
                        9093,
                        Path.of("/var/kafka"),
                        1,
                        "ZmxlZXQtbGFrZWhvdXNlIQ",
                        2,
                        Duration.ofDays(7),
                        false));
        assertThat(config.bootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(config.logDirectory()).isEqualTo(Path.of("/var/kafka/logs"));
    }

    @Test
    void everyKeyIsRead() {
        KafkaBrokerConfig config = KafkaBrokerConfig.from(ConfigSource.of(Map.of(
                "kafka.host", "broker.local",
                "kafka.port", "19092",
                "kafka.controller-port", "19093",
                "kafka.data-dir", "/data/kafka",
                "kafka.node-id", "7",
                "kafka.cluster-id", "MkU3OEVBNTcwNTJENDM2Qg",
                "kafka.default-partitions", "6",
                "kafka.log-retention", "12h",
                "kafka.auto-create-topics", "true")));

        assertThat(config)
                .isEqualTo(new KafkaBrokerConfig(
                        "broker.local",
                        19092,
                        19093,
                        Path.of("/data/kafka"),
                        7,
                        "MkU3OEVBNTcwNTJENDM2Qg",
                        6,
                        Duration.ofHours(12),
                        true));
    }

    @Test
    void dataDirectoryIsRequired() {
        assertThatThrownBy(() -> KafkaBrokerConfig.from(ConfigSource.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.data-dir")
                .hasMessageContaining("FLEET_KAFKA_DATA_DIR");
    }

    @Test
    void wildcardHostIsRejectedBecauseItWouldBeAdvertised() {
        assertThatThrownBy(() -> configWith("kafka.host", "0.0.0.0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.host = '0.0.0.0'")
                .hasMessageContaining("concrete address");
    }

    @Test
    void portZeroIsRejected() {
        assertThatThrownBy(() -> configWith("kafka.port", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.port = 0 must be a fixed port");
    }

    @Test
    void clientAndControllerPortsMustDiffer() {
        assertThatThrownBy(() -> configWith("kafka.controller-port", "9092"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("need different ports");
    }

    @Test
    void clusterIdMustBeAKafkaUuid() {
        assertThatThrownBy(() -> configWith("kafka.cluster-id", "fleet"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.cluster-id = 'fleet' is not a Kafka cluster id");
        assertThatThrownBy(() -> configWith("kafka.cluster-id", "AAAAAAAAAAAAAAAAAAAAAA"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("reserved");
    }

    @Test
    void partitionsAndRetentionMustBePositive() {
        assertThatThrownBy(() -> configWith("kafka.default-partitions", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.default-partitions = 0");
        assertThatThrownBy(() -> configWith("kafka.log-retention", "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.log-retention");
        assertThatThrownBy(() -> configWith("kafka.node-id", "-1"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("kafka.node-id = -1");
    }

    private static KafkaBrokerConfig configWith(String key, String value) {
        Map<String, String> values = new HashMap<>();
        values.put("kafka.data-dir", "/var/kafka");
        values.put(key, value);
        return KafkaBrokerConfig.from(ConfigSource.of(values));
    }
}

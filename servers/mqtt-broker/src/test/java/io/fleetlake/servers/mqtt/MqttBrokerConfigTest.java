package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MqttBrokerConfigTest {
    @Test
    void defaults() {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of("mqtt.data-dir", "/var/mqtt")));

        assertThat(config)
                .isEqualTo(new MqttBrokerConfig(
                        "127.0.0.1",
                        1883,
                        Path.of("/var/mqtt"),
                        1_000_000,
                        Duration.ofDays(7),
                        65_536,
                        65_535,
                        1_000,
                        MqttBrokerConfig.Persistence.FILE));
        assertThat(config.address()).isEqualTo("127.0.0.1:1883");
        assertThat(config.configurationDirectory()).isEqualTo(Path.of("/var/mqtt/conf"));
        assertThat(config.persistenceDirectory()).isEqualTo(Path.of("/var/mqtt/data"));
        assertThat(config.extensionsDirectory()).isEqualTo(Path.of("/var/mqtt/extensions"));
    }

    @Test
    void everyKeyIsRead() {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.of(
                "mqtt.host", "broker.local",
                "mqtt.port", "11883",
                "mqtt.data-dir", "/data/mqtt",
                "mqtt.max-queued-messages", "5000",
                "mqtt.max-session-expiry", "1h",
                "mqtt.max-packet-size", "4096",
                "mqtt.server-receive-maximum", "1000",
                "mqtt.max-inflight-window", "3000",
                "mqtt.persistence", "in-memory")));

        assertThat(config)
                .isEqualTo(new MqttBrokerConfig(
                        "broker.local",
                        11883,
                        Path.of("/data/mqtt"),
                        5000,
                        Duration.ofHours(1),
                        4096,
                        1000,
                        3000,
                        MqttBrokerConfig.Persistence.IN_MEMORY));
    }

    @Test
    void dataDirectoryIsRequired() {
        assertThatThrownBy(() -> MqttBrokerConfig.from(ConfigSource.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.data-dir")
                .hasMessageContaining("FLEET_MQTT_DATA_DIR");
    }

    @Test
    void portMustBeFixed() {
        assertThatThrownBy(() -> configWith("mqtt.port", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.port = 0 must be a fixed port");
    }

    @Test
    void queueMustHoldAtLeastOneMessage() {
        assertThatThrownBy(() -> configWith("mqtt.max-queued-messages", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-queued-messages = 0");
    }

    @Test
    void sessionExpiryMustFitMqtt() {
        assertThatThrownBy(() -> configWith("mqtt.max-session-expiry", "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-session-expiry");
        assertThatThrownBy(() -> configWith("mqtt.max-session-expiry", "50000d"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("at most 4294967295 seconds");
    }

    @Test
    void packetSizeMustFitMqtt() {
        assertThatThrownBy(() -> configWith("mqtt.max-packet-size", "1023"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-packet-size = 1023 must be between 1024 and 268435460 bytes");
        assertThatThrownBy(() -> configWith("mqtt.max-packet-size", "268435461"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-packet-size");
    }

    @Test
    void receiveMaximumMustFitMqtt() {
        assertThatThrownBy(() -> configWith("mqtt.server-receive-maximum", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.server-receive-maximum = 0 must be between 1 and 65535");
        assertThatThrownBy(() -> configWith("mqtt.server-receive-maximum", "65536"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.server-receive-maximum");
    }

    @Test
    void inflightWindowFitsMqtt() {
        assertThatThrownBy(() -> configWith("mqtt.max-inflight-window", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-inflight-window = 0 must be between 1 and 65535");
    }

    @Test
    void persistenceIsFileOrMemory() {
        assertThatThrownBy(() -> configWith("mqtt.persistence", "disk"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.persistence = 'disk' must be file or in-memory");
    }

    private static MqttBrokerConfig configWith(String key, String value) {
        Map<String, String> values = new HashMap<>();
        values.put("mqtt.data-dir", "/var/mqtt");
        values.put(key, value);
        return MqttBrokerConfig.from(ConfigSource.of(values));
    }
}

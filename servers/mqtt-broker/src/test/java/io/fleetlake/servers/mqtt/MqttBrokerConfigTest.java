package io.fleetlake.servers.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
                        MqttBrokerConfig.Persistence.FILE,
                        Path.of("/var/mqtt/identity/principals.json"),
                        Duration.ofSeconds(1),
                        10_000,
                        Optional.empty()));
        assertThat(config.address()).isEqualTo("127.0.0.1:1883");
        assertThat(config.configurationDirectory()).isEqualTo(Path.of("/var/mqtt/conf"));
        assertThat(config.persistenceDirectory()).isEqualTo(Path.of("/var/mqtt/data"));
        assertThat(config.extensionsDirectory()).isEqualTo(Path.of("/var/mqtt/extensions"));
    }

    @Test
    void everyKeyIsRead() {
        MqttBrokerConfig config = MqttBrokerConfig.from(ConfigSource.of(Map.ofEntries(
                Map.entry("mqtt.host", "broker.local"),
                Map.entry("mqtt.port", "11883"),
                Map.entry("mqtt.data-dir", "/data/mqtt"),
                Map.entry("mqtt.max-queued-messages", "5000"),
                Map.entry("mqtt.max-session-expiry", "1h"),
                Map.entry("mqtt.max-packet-size", "4096"),
                Map.entry("mqtt.server-receive-maximum", "1000"),
                Map.entry("mqtt.max-inflight-window", "3000"),
                Map.entry("mqtt.persistence", "in-memory"),
                Map.entry("mqtt.identity-file", "/etc/fleet/principals.json"),
                Map.entry("mqtt.identity-reload-interval", "5s"),
                Map.entry("mqtt.max-connections", "50"),
                Map.entry("mqtt.tls-port", "18883"),
                Map.entry("mqtt.tls-certificate", "/etc/fleet/mqtt.pem"),
                Map.entry("mqtt.tls-private-key", "/etc/fleet/mqtt-key.pem"),
                Map.entry("mqtt.tls-hostnames", "broker.local, 10.0.0.5"))));

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
                        MqttBrokerConfig.Persistence.IN_MEMORY,
                        Path.of("/etc/fleet/principals.json"),
                        Duration.ofSeconds(5),
                        50,
                        Optional.of(new MqttBrokerConfig.Tls(
                                18883,
                                Optional.of(Path.of("/etc/fleet/mqtt.pem")),
                                Optional.of(Path.of("/etc/fleet/mqtt-key.pem")),
                                List.of("broker.local", "10.0.0.5"),
                                Path.of("/data/mqtt/tls")))));
    }

    @Test
    void tlsListenerDefaultsToACertificateOfTheLocalCaForTheListenersNames() {
        MqttBrokerConfig config = configWith("mqtt.tls-port", "8883");

        MqttBrokerConfig.Tls tls = config.tls().orElseThrow();
        assertThat(tls.certificate()).isEmpty();
        assertThat(tls.hostnames()).containsExactly("127.0.0.1", "localhost");
        assertThat(tls.caCertificate()).isEqualTo(Path.of("/var/mqtt/tls/ca.pem"));
        assertThat(MqttBrokerConfig.defaultHostnames("0.0.0.0")).containsExactly("localhost", "127.0.0.1");
    }

    @Test
    void tlsNeedsBothCertificateAndKeyAndAPortOfItsOwn() {
        assertThatThrownBy(() -> configWith("mqtt.tls-certificate", "/a.pem"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("need mqtt.tls-port");
        Map<String, String> values = new HashMap<>(
                Map.of("mqtt.data-dir", "/var/mqtt", "mqtt.tls-port", "8883", "mqtt.tls-certificate", "/a.pem"));
        assertThatThrownBy(() -> MqttBrokerConfig.from(ConfigSource.of(values)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Set both mqtt.tls-certificate and mqtt.tls-private-key");
        assertThatThrownBy(() -> configWith("mqtt.tls-port", "1883"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is also mqtt.port");
    }

    @Test
    void limitsArePositive() {
        assertThatThrownBy(() -> configWith("mqtt.max-connections", "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.max-connections = 0");
        assertThatThrownBy(() -> configWith("mqtt.identity-reload-interval", "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("mqtt.identity-reload-interval");
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

package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FleetSimulatorConfigTest {
    @Test
    void defaults() {
        FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.empty());

        assertThat(config)
                .isEqualTo(new FleetSimulatorConfig(
                        340,
                        42,
                        Duration.ofSeconds(5),
                        0,
                        Duration.ofSeconds(60),
                        URI.create("tcp://127.0.0.1:1883"),
                        Optional.empty(),
                        Optional.empty(),
                        "fleet-simulator",
                        0.1,
                        1000,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(30)));
        assertThat(config).isEqualTo(FleetSimulatorConfig.defaults());
        assertThat(config.naturalRate()).isCloseTo(68.0, within(1e-9));
        assertThat(config.effectiveRate()).isCloseTo(68.0, within(1e-9));
        assertThat(config.bounded()).isTrue();
        assertThat(config.mqttHost()).isEqualTo("127.0.0.1");
        assertThat(config.mqttPort()).isEqualTo(1883);
        assertThat(config.mqttTls()).isFalse();
    }

    @Test
    void everyKeyIsMapped() {
        FleetSimulatorConfig config = FleetSimulatorConfig.from(ConfigSource.of(Map.ofEntries(
                Map.entry("simulator.vehicles", "10"),
                Map.entry("simulator.seed", "-7"),
                Map.entry("simulator.fix-interval", "250ms"),
                Map.entry("simulator.rate", "12.5"),
                Map.entry("simulator.duration", "0s"),
                Map.entry("simulator.mqtt-uri", "ssl://broker.example:8884"),
                Map.entry("simulator.mqtt-username", "fleet"),
                Map.entry("simulator.mqtt-password", "s3cret"),
                Map.entry("simulator.client-id", "load-test-1"),
                Map.entry("simulator.json-share", "0.5"),
                Map.entry("simulator.max-in-flight", "16"),
                Map.entry("simulator.connect-timeout", "3s"),
                Map.entry("simulator.close-timeout", "1m"))));

        assertThat(config)
                .isEqualTo(new FleetSimulatorConfig(
                        10,
                        -7,
                        Duration.ofMillis(250),
                        12.5,
                        Duration.ZERO,
                        URI.create("ssl://broker.example:8884"),
                        Optional.of("fleet"),
                        Optional.of("s3cret"),
                        "load-test-1",
                        0.5,
                        16,
                        Duration.ofSeconds(3),
                        Duration.ofMinutes(1)));
        assertThat(config.naturalRate()).isCloseTo(40.0, within(1e-9));
        assertThat(config.effectiveRate()).isCloseTo(12.5, within(1e-9));
        assertThat(config.bounded()).isFalse();
        assertThat(config.mqttTls()).isTrue();
        assertThat(config.mqttPort()).isEqualTo(8884);
    }

    @Test
    void environmentVariablesAreRead() {
        ConfigSource source = ConfigSource.empty().withEnvironment(Map.of("FLEET_SIMULATOR_VEHICLES", "25"));

        assertThat(FleetSimulatorConfig.from(source).vehicles()).isEqualTo(25);
    }

    @Test
    void portDefaultsFollowTheScheme() {
        assertThat(config("simulator.mqtt-uri", "tcp://broker").mqttPort()).isEqualTo(1883);
        assertThat(config("simulator.mqtt-uri", "ssl://broker").mqttPort()).isEqualTo(8883);
    }

    @Test
    void passwordIsRedacted() {
        FleetSimulatorConfig config = FleetSimulatorConfig.from(
                ConfigSource.of(Map.of("simulator.mqtt-username", "fleet", "simulator.mqtt-password", "s3cret")));

        assertThat(config.toString())
                .doesNotContain("s3cret")
                .contains("mqttPassword=<redacted>")
                .contains("mqttUsername=fleet");
        assertThat(FleetSimulatorConfig.defaults().toString()).contains("mqttPassword=<none>");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "simulator.vehicles, 0, between 1 and 100000",
        "simulator.fix-interval, 0s, between 1ms and 1h",
        "simulator.fix-interval, 2h, between 1ms and 1h",
        "simulator.rate, -1, 0 (the natural rate",
        "simulator.mqtt-uri, http://127.0.0.1:1883, tcp://127.0.0.1:1883 or ssl://broker:8883",
        "simulator.mqtt-uri, tcp:///no-host, a URI with a host",
        "simulator.json-share, 1.5, a share between 0 and 1",
        "simulator.max-in-flight, 0, at least 1",
        "simulator.connect-timeout, 0s, a positive duration",
        "simulator.client-id, ' ', a non-empty MQTT client identifier"
    })
    void invalidValuesSayWhatToSet(String key, String value, String expected) {
        assertThatThrownBy(() -> config(key, value))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(expected)
                .hasMessageContaining(ConfigSource.environmentName(key));
    }

    @Test
    void passwordWithoutUsernameIsRejectedWithoutRevealingIt() {
        assertThatThrownBy(() -> config("simulator.mqtt-password", "s3cret"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("simulator.mqtt-username")
                .hasMessageNotContaining("s3cret");
    }

    private static FleetSimulatorConfig config(String key, String value) {
        return FleetSimulatorConfig.from(ConfigSource.of(Map.of(key, value)));
    }
}

package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.model.FleetPatterns;
import java.net.URI;
import java.nio.file.Path;
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
                        Duration.ofSeconds(30),
                        0.3,
                        Duration.ofMinutes(3),
                        0.2,
                        0.5,
                        0.1,
                        Duration.ofMinutes(10),
                        Duration.ofSeconds(1),
                        Optional.empty()));
        assertThat(config).isEqualTo(FleetSimulatorConfig.defaults());
        assertThat(config.patterns())
                .isEqualTo(new FleetPatterns(
                        0.3, Duration.ofMinutes(3), 0.2, 0.5, 0.1, Duration.ofMinutes(10), Duration.ofSeconds(1)));
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
                Map.entry("simulator.close-timeout", "1m"),
                Map.entry("simulator.v2-share", "0.75"),
                Map.entry("simulator.delivery-stop-duration", "0s"),
                Map.entry("simulator.deviation-rate", "6"),
                Map.entry("simulator.glitch-rate", "0"),
                Map.entry("simulator.garage-rate", "2"),
                Map.entry("simulator.garage-duration", "15m"),
                Map.entry("simulator.garage-fix-interval", "250ms"),
                Map.entry("simulator.device-credentials", "/data/secrets/devices.properties"))));

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
                        Duration.ofMinutes(1),
                        0.75,
                        Duration.ZERO,
                        6,
                        0,
                        2,
                        Duration.ofMinutes(15),
                        Duration.ofMillis(250),
                        Optional.of(Path.of("/data/secrets/devices.properties"))));
        assertThat(config.naturalRate()).isCloseTo(40.0, within(1e-9));
        assertThat(config.effectiveRate()).isCloseTo(12.5, within(1e-9));
        assertThat(config.bounded()).isFalse();
        assertThat(config.mqttTls()).isTrue();
        assertThat(config.mqttPort()).isEqualTo(8884);
        FleetSimulatorConfig device = config.asDevice("VH-0007", "device-secret");
        assertThat(device.clientId()).isEqualTo("VH-0007");
        assertThat(device.mqttUsername()).contains("VH-0007");
        assertThat(device.mqttPassword()).contains("device-secret");
        assertThat(device.maxInFlight()).isEqualTo(10);
        assertThat(device.deviceCredentials()).isEmpty();
        assertThat(device.toString()).doesNotContain("device-secret");
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
        "simulator.client-id, ' ', a non-empty MQTT client identifier",
        "simulator.v2-share, -0.1, a share between 0 and 1",
        "simulator.delivery-stop-duration, 2h, 0s (drive through stops) or a duration up to 1h",
        "simulator.deviation-rate, 7, between 0 (none) and 6",
        "simulator.glitch-rate, -1, between 0 (none) and 60",
        "simulator.garage-rate, 4, so that devices are offline at most half of the time",
        "simulator.garage-duration, 0s, a duration above 0 and up to 1h",
        "simulator.garage-duration, 61m, a duration above 0 and up to 1h",
        "simulator.garage-fix-interval, 0s, at least 1ms and at most 100000 fixes per outage",
        "simulator.garage-fix-interval, 5ms, at least 1ms and at most 100000 fixes per outage"
    })
    void invalidValuesSayWhatToSet(String key, String value, String expected) {
        assertThatThrownBy(() -> config(key, value))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(expected)
                .hasMessageContaining(ConfigSource.environmentName(key));
    }

    @Test
    void patternKeysAreReadFromTheEnvironment() {
        ConfigSource source = ConfigSource.empty()
                .withEnvironment(Map.of(
                        "FLEET_SIMULATOR_GLITCH_RATE", "3",
                        "FLEET_SIMULATOR_GARAGE_FIX_INTERVAL", "2s",
                        "FLEET_SIMULATOR_DELIVERY_STOP_DURATION", "90s"));

        FleetPatterns patterns = FleetSimulatorConfig.from(source).patterns();

        assertThat(patterns.glitchesPerHour()).isEqualTo(3);
        assertThat(patterns.garageFixInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(patterns.deliveryStopDuration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(FleetSimulatorConfig.deliveryStopDuration(source)).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void garageRateIsCheckedAgainstTheGarageDuration() {
        // Two 15-minute outages an hour keep devices offline half of the time: the most allowed.
        assertThat(FleetSimulatorConfig.from(ConfigSource.of(
                                Map.of("simulator.garage-rate", "2", "simulator.garage-duration", "15m")))
                        .garageRate())
                .isEqualTo(2);
        assertThatThrownBy(() -> FleetSimulatorConfig.from(
                        ConfigSource.of(Map.of("simulator.garage-rate", "2", "simulator.garage-duration", "16m"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("simulator.garage-rate")
                .hasMessageContaining("0.5 h / simulator.garage-duration (PT16M)");
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

package io.fleetlake.simulator.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanningApiConfigTest {
    private static final String TOKEN = "planning-token-0123456789";

    @Test
    void defaults() {
        PlanningApiConfig config = PlanningApiConfig.from(ConfigSource.empty());

        assertThat(config)
                .isEqualTo(new PlanningApiConfig(
                        "127.0.0.1", 8090, 42, 340, Duration.ofMinutes(3), Optional.empty(), 1_048_576, 16));
        assertThat(config).isEqualTo(PlanningApiConfig.defaults());
    }

    @Test
    void everyKeyIsMappedAndTheFleetComesFromTheSimulatorKeys() {
        PlanningApiConfig config = PlanningApiConfig.from(ConfigSource.of(Map.of(
                "planning.host", "localhost",
                "planning.port", "0",
                "simulator.seed", "-7",
                "simulator.vehicles", "25",
                "simulator.delivery-stop-duration", "90s",
                "simulator.glitch-rate", "3",
                "planning.token", TOKEN,
                "planning.max-request-bytes", "4096",
                "planning.max-concurrent-requests", "2")));

        assertThat(config)
                .isEqualTo(new PlanningApiConfig(
                        "localhost", 0, -7, 25, Duration.ofSeconds(90), Optional.of(TOKEN), 4096, 2));
    }

    @Test
    void toStringHidesTheToken() {
        PlanningApiConfig config = PlanningApiConfig.from(ConfigSource.of(Map.of("planning.token", TOKEN)));

        assertThat(config.toString()).contains("token=[hidden]").doesNotContain(TOKEN);
        assertThat(PlanningApiConfig.defaults().toString()).contains("token=none");
    }

    @Test
    void aShortTokenIsRefusedWithoutShowingIt() {
        assertThatThrownBy(() -> PlanningApiConfig.from(ConfigSource.of(Map.of("planning.token", "guessable"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("planning.token")
                .hasMessageContaining("shorter than 16")
                .hasMessageNotContaining("guessable");
    }

    @Test
    void environmentVariablesAreRead() {
        ConfigSource source = ConfigSource.empty()
                .withEnvironment(Map.of("FLEET_PLANNING_PORT", "9191", "FLEET_SIMULATOR_VEHICLES", "12"));

        PlanningApiConfig config = PlanningApiConfig.from(source);

        assertThat(config.port()).isEqualTo(9191);
        assertThat(config.vehicles()).isEqualTo(12);
    }

    @Test
    void aNegativeDeliveryStopDurationIsRefused() {
        assertThatThrownBy(() -> new PlanningApiConfig(
                        "127.0.0.1", 8090, 42, 340, Duration.ofSeconds(-1), Optional.empty(), 1_048_576, 16))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("simulator.delivery-stop-duration");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        "planning.host, ' ', a host name or address",
        "planning.port, 70000, a port number between 0 and 65535",
        "simulator.vehicles, 0, the simulator's fleet size",
        "simulator.delivery-stop-duration, 2h, 0s (drive through stops) or a duration up to 1h",
        "planning.max-request-bytes, 100, at least 1024 bytes",
        "planning.max-concurrent-requests, 0, at least 1"
    })
    void invalidValuesSayWhatToSet(String key, String value, String expected) {
        assertThatThrownBy(() -> PlanningApiConfig.from(ConfigSource.of(Map.of(key, value))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(expected);
    }
}

package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetPublisherTest {
    @TempDir
    Path folder;

    @Test
    void vehiclesOfTheCredentialsFileGetDeviceConnections() throws Exception {
        Path credentials = folder.resolve("devices.properties");
        Files.writeString(credentials, "# device secrets\nVH-0002=two\nVH-0001=one\n");

        try (FleetPublisher publisher = FleetPublisher.of(FleetSimulatorConfig.from(
                ConfigSource.of(Map.of(FleetSimulatorConfig.DEVICE_CREDENTIALS, credentials.toString()))))) {
            assertThat(publisher.deviceVehicles()).containsExactly("VH-0001", "VH-0002");
            assertThat(publisher.counts().published()).isZero();
        }
        assertThat(FleetPublisher.read(credentials)).isEqualTo(Map.of("VH-0001", "one", "VH-0002", "two"));
    }

    @Test
    void withoutCredentialsEverythingGoesThroughTheGateway() {
        try (FleetPublisher publisher = FleetPublisher.of(FleetSimulatorConfig.defaults())) {
            assertThat(publisher.deviceVehicles()).isEmpty();
        }
    }

    @Test
    void unreadableCredentialsNameTheKey() {
        assertThatThrownBy(() -> FleetPublisher.of(FleetSimulatorConfig.from(ConfigSource.of(Map.of(
                        FleetSimulatorConfig.DEVICE_CREDENTIALS,
                        folder.resolve("missing").toString())))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("simulator.device-credentials");
    }
}

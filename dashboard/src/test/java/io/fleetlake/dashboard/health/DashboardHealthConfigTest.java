package io.fleetlake.dashboard.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DashboardHealthConfigTest {
    @Test
    void noExporterByDefault() {
        DashboardHealthConfig config = DashboardHealthConfig.from(ConfigSource.empty());

        assertThat(config.healthUri()).isEmpty();
        assertThat(config.reader()).isSameAs(HealthReader.NOT_CONFIGURED);
    }

    @Test
    void theExportersHealthUri() {
        DashboardHealthConfig config = DashboardHealthConfig.from(
                ConfigSource.of(Map.of(DashboardHealthConfig.HEALTH_URI, "http://fleet-exporter:9400/health")));

        assertThat(config.healthUri()).isEqualTo(Optional.of(URI.create("http://fleet-exporter:9400/health")));
        assertThat(config.reader()).isInstanceOf(ExporterHealthReader.class);
    }

    @Test
    void aNonHttpUriIsRefusedWithItsKey() {
        assertThatThrownBy(() -> DashboardHealthConfig.from(
                        ConfigSource.of(Map.of(DashboardHealthConfig.HEALTH_URI, "redis://fleet-exporter:9400"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(DashboardHealthConfig.HEALTH_URI);
    }
}

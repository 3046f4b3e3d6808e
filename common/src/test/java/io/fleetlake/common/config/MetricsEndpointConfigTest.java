package io.fleetlake.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class MetricsEndpointConfigTest {
    @Test
    void withoutAPortNoMetricsAreServed() {
        MetricsEndpointConfig config = MetricsEndpointConfig.from(ConfigSource.empty(), "catalog");

        assertThat(config).isEqualTo(new MetricsEndpointConfig("127.0.0.1", OptionalInt.empty()));
        assertThat(config.enabled()).isFalse();
    }

    @Test
    void theHostDefaultsToTheComponentsOwn() {
        MetricsEndpointConfig config = MetricsEndpointConfig.from(
                ConfigSource.of(Map.of("dashboard.host", "dashboard", "dashboard.metrics-port", "9464")), "dashboard");

        assertThat(config).isEqualTo(new MetricsEndpointConfig("dashboard", OptionalInt.of(9464)));
        assertThat(config.enabled()).isTrue();
    }

    @Test
    void anExplicitMetricsHostWins() {
        MetricsEndpointConfig config = MetricsEndpointConfig.from(
                ConfigSource.of(Map.of(
                        "catalog.host", "0.0.0.0", "catalog.metrics-host", "127.0.0.1", "catalog.metrics-port", "0")),
                "catalog");

        assertThat(config).isEqualTo(new MetricsEndpointConfig("127.0.0.1", OptionalInt.of(0)));
    }

    @Test
    void anInvalidPortIsNamedByItsKey() {
        assertThatThrownBy(() ->
                        MetricsEndpointConfig.from(ConfigSource.of(Map.of("catalog.metrics-port", "99999")), "catalog"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.metrics-port");
    }
}

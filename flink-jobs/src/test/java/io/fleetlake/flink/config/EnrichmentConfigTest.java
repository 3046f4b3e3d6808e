package io.fleetlake.flink.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnrichmentConfigTest {
    @Test
    void defaults() {
        assertThat(EnrichmentConfig.from(ConfigSource.empty()))
                .isEqualTo(EnrichmentConfig.defaults())
                .isEqualTo(new EnrichmentConfig(
                        Duration.ofMinutes(5),
                        Duration.ofSeconds(5),
                        Duration.ofMinutes(10),
                        50,
                        3,
                        Duration.ofSeconds(60),
                        150,
                        3,
                        ""));
    }

    @Test
    void everyKeyIsRead() {
        EnrichmentConfig config = EnrichmentConfig.from(ConfigSource.of(Map.of(
                "enrichment.route-refresh", "1m",
                "enrichment.planning-timeout", "2s",
                "enrichment.route-stale-after", "3m",
                "enrichment.arrival-radius-m", "25.5",
                "enrichment.stop-speed-kmh", "2",
                "enrichment.stop-min-duration", "2m",
                "enrichment.deviation-threshold-m", "200",
                "enrichment.deviation-min-fixes", "5",
                "enrichment.planning-token", "planning-token-0123456789")));

        assertThat(config)
                .isEqualTo(new EnrichmentConfig(
                        Duration.ofMinutes(1),
                        Duration.ofSeconds(2),
                        Duration.ofMinutes(3),
                        25.5,
                        2,
                        Duration.ofMinutes(2),
                        200,
                        5,
                        "planning-token-0123456789"));
        assertThat(config.token()).contains("planning-token-0123456789");
        assertThat(config.toString()).contains("planningToken=[hidden]").doesNotContain("planning-token-0123456789");
        assertThat(EnrichmentConfig.defaults().token()).isEmpty();
    }

    @Test
    void staleAfterFollowsTheRefreshUnlessSet() {
        assertThat(EnrichmentConfig.from(ConfigSource.of(Map.of("enrichment.route-refresh", "2m")))
                        .routeStaleAfter())
                .isEqualTo(Duration.ofMinutes(4));
    }

    @Test
    void routesMustNotBeStaleBeforeTheNextRefresh() {
        assertThatThrownBy(() -> EnrichmentConfig.from(ConfigSource.of(Map.of("enrichment.route-stale-after", "5m"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "enrichment.route-stale-after = PT5M: expected more than enrichment.route-refresh");
    }

    @Test
    void invalidValuesNameTheKey() {
        assertThatThrownBy(() -> config("enrichment.route-refresh", "0s"))
                .hasMessageContaining("enrichment.route-refresh = PT0S: expected a positive duration");
        assertThatThrownBy(() -> config("enrichment.planning-timeout", "0s"))
                .hasMessageContaining("enrichment.planning-timeout");
        assertThatThrownBy(() -> config("enrichment.arrival-radius-m", "0"))
                .hasMessageContaining("enrichment.arrival-radius-m = 0.0: expected a positive finite number");
        assertThatThrownBy(() -> config("enrichment.stop-speed-kmh", "-1"))
                .hasMessageContaining("enrichment.stop-speed-kmh");
        assertThatThrownBy(() -> config("enrichment.deviation-threshold-m", "NaN"))
                .hasMessageContaining("enrichment.deviation-threshold-m");
        assertThatThrownBy(() -> config("enrichment.stop-min-duration", "-PT1S"))
                .hasMessageContaining("enrichment.stop-min-duration");
        assertThatThrownBy(() -> config("enrichment.deviation-min-fixes", "0"))
                .hasMessageContaining("enrichment.deviation-min-fixes = 0: expected at least 1");
    }

    @Test
    void aVehicleMayCountAsStoppedAtOnce() {
        assertThat(config("enrichment.stop-min-duration", "0s").stopMinDuration())
                .isZero();
    }

    private static EnrichmentConfig config(String key, String value) {
        return EnrichmentConfig.from(ConfigSource.of(Map.of(key, value)));
    }
}

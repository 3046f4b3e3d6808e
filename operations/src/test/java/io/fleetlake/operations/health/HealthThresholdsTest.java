package io.fleetlake.operations.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthThresholdsTest {
    @Test
    void defaults() {
        assertThat(HealthThresholds.from(ConfigSource.empty()))
                .isEqualTo(new HealthThresholds(
                        Duration.ofSeconds(30),
                        3,
                        Duration.ofMinutes(5),
                        0.05,
                        0.1,
                        Duration.ofMinutes(2),
                        Duration.ofMinutes(15),
                        Duration.ofHours(2),
                        Duration.ofSeconds(5)));
    }

    @Test
    void everyKeyIsRead() {
        HealthThresholds thresholds = HealthThresholds.from(ConfigSource.of(Map.of(
                HealthThresholds.MAX_LAG, "10s",
                HealthThresholds.COMMIT_INTERVALS, "5",
                HealthThresholds.DEAD_LETTER_WINDOW, "10m",
                HealthThresholds.MAX_DEAD_LETTER_SHARE, "0.2",
                HealthThresholds.MIN_DEAD_LETTER_RATE, "1",
                HealthThresholds.MAX_REDIS_AGE, "1m",
                HealthThresholds.RESTART_WINDOW, "1h",
                HealthThresholds.MAX_MAINTENANCE_AGE, "6h",
                HealthThresholds.SAMPLE_WINDOW, "0s")));

        assertThat(thresholds)
                .isEqualTo(new HealthThresholds(
                        Duration.ofSeconds(10),
                        5,
                        Duration.ofMinutes(10),
                        0.2,
                        1,
                        Duration.ofMinutes(1),
                        Duration.ofHours(1),
                        Duration.ofHours(6),
                        Duration.ZERO));
    }

    @Test
    void aShareAboveOneIsRefusedWithItsKey() {
        assertThatThrownBy(() ->
                        HealthThresholds.from(ConfigSource.of(Map.of(HealthThresholds.MAX_DEAD_LETTER_SHARE, "5"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(HealthThresholds.MAX_DEAD_LETTER_SHARE);
    }
}

package io.fleetlake.operations.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerifyConfigTest {
    @Test
    void defaults() {
        assertThat(VerifyConfig.from(ConfigSource.empty()).stalledAfter()).isEqualTo(Duration.ofSeconds(50));
    }

    @Test
    void theDefaultFollowsThePipelinesCheckpointInterval() {
        assertThat(VerifyConfig.from(ConfigSource.of(Map.of("pipeline.checkpoint-interval", "2s")))
                        .stalledAfter())
                .isEqualTo(Duration.ofSeconds(34));
    }

    @Test
    void everyKeyIsRead() {
        assertThat(VerifyConfig.from(ConfigSource.of(
                                Map.of("verify.stalled-after", "5m", "pipeline.checkpoint-interval", "2s")))
                        .stalledAfter())
                .isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aThresholdMustBePositive() {
        assertThatThrownBy(() -> VerifyConfig.from(ConfigSource.of(Map.of("verify.stalled-after", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("verify.stalled-after must be positive");
    }
}

package io.fleetlake.stack.supervision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SupervisionPolicyTest {
    @Test
    void defaults() {
        SupervisionPolicy policy = SupervisionPolicy.from(ConfigSource.empty());

        assertThat(policy)
                .isEqualTo(SupervisionPolicy.defaults())
                .isEqualTo(
                        new SupervisionPolicy(Duration.ofSeconds(1), Duration.ofMinutes(1), 10, Duration.ofMinutes(2)));
    }

    @Test
    void everyKeyIsRead() {
        SupervisionPolicy policy = SupervisionPolicy.from(ConfigSource.of(Map.of(
                "stack.restart-initial-delay", "250ms",
                "stack.restart-max-delay", "5s",
                "stack.restart-max-attempts", "0",
                "stack.restart-stable-after", "30s")));

        assertThat(policy)
                .isEqualTo(new SupervisionPolicy(
                        Duration.ofMillis(250), Duration.ofSeconds(5), 0, Duration.ofSeconds(30)));
    }

    @Test
    void delayDoublesUpToTheCap() {
        SupervisionPolicy policy = SupervisionPolicy.defaults();

        assertThat(policy.delayBefore(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delayBefore(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.delayBefore(6)).isEqualTo(Duration.ofSeconds(32));
        assertThat(policy.delayBefore(7)).isEqualTo(Duration.ofMinutes(1));
        assertThat(policy.delayBefore(10_000)).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void givesUpOnlyAfterTheLastAllowedAttempt() {
        SupervisionPolicy threeAttempts =
                new SupervisionPolicy(Duration.ofSeconds(1), Duration.ofMinutes(1), 3, Duration.ofMinutes(2));
        SupervisionPolicy never =
                new SupervisionPolicy(Duration.ofSeconds(1), Duration.ofMinutes(1), 0, Duration.ofMinutes(2));

        assertThat(threeAttempts.givesUpAt(3)).isFalse();
        assertThat(threeAttempts.givesUpAt(4)).isTrue();
        assertThat(never.givesUpAt(1_000_000)).isFalse();
    }

    @Test
    void invalidValuesNameTheKey() {
        assertThatThrownBy(() -> SupervisionPolicy.from(ConfigSource.of(Map.of("stack.restart-max-attempts", "-1"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stack.restart-max-attempts must be 0 (never give up) or more, got -1");
        assertThatThrownBy(() -> SupervisionPolicy.from(
                        ConfigSource.of(Map.of("stack.restart-initial-delay", "2m", "stack.restart-max-delay", "1m"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stack.restart-max-delay = PT1M is shorter than stack.restart-initial-delay = PT2M");
        assertThatThrownBy(() -> SupervisionPolicy.from(ConfigSource.of(Map.of("stack.restart-stable-after", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("stack.restart-stable-after must be positive, got PT0S");
    }
}

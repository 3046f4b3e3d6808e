package io.fleetlake.dashboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DashboardSecurityConfigTest {
    @Test
    void defaults() {
        DashboardSecurityConfig config = DashboardSecurityConfig.from(
                ConfigSource.of(Map.of(DashboardSecurityConfig.USERS_FILE, "/data/operators.properties")));

        assertThat(config)
                .isEqualTo(new DashboardSecurityConfig(
                        Optional.of(Path.of("/data/operators.properties")),
                        Optional.empty(),
                        Duration.ofMinutes(30),
                        Duration.ofHours(12),
                        false,
                        10,
                        Duration.ofMinutes(15),
                        16 * 1024,
                        32));
    }

    @Test
    void aPasswordIsHashedAtOnceAndNeverShown() {
        DashboardSecurityConfig config = DashboardSecurityConfig.from(
                ConfigSource.of(Map.of(DashboardSecurityConfig.PASSWORD, "correct horse battery")));

        assertThat(config.operators().hash("operator").orElseThrow().matches("correct horse battery"))
                .isTrue();
        assertThat(config.operators().hash("someone")).isEmpty();
        assertThat(config.toString()).contains("password=[hidden]").doesNotContain("correct horse");
    }

    @Test
    void refusesToServeWithoutSignInOrWithTwoSourcesOfOperators() {
        assertThatThrownBy(() -> DashboardSecurityConfig.from(ConfigSource.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.users-file")
                .hasMessageContaining("never serves without sign-in");
        assertThatThrownBy(() -> DashboardSecurityConfig.from(ConfigSource.of(Map.of(
                        DashboardSecurityConfig.USERS_FILE, "/x", DashboardSecurityConfig.PASSWORD, "long enough pw"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("exactly one");
    }

    @Test
    void refusesAShortPasswordWithoutShowingIt() {
        assertThatThrownBy(() -> DashboardSecurityConfig.from(
                        ConfigSource.of(Map.of(DashboardSecurityConfig.PASSWORD, "short-pw"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.password")
                .hasMessageContaining("at least 12 characters")
                .hasMessageNotContaining("short-pw");
    }
}

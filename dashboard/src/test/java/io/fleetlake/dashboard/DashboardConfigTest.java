package io.fleetlake.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DashboardConfigTest {
    @Test
    void defaults() {
        assertThat(DashboardConfig.from(ConfigSource.empty()))
                .isEqualTo(new DashboardConfig(
                        "127.0.0.1",
                        8088,
                        URI.create("redis://127.0.0.1:6379"),
                        "jdbc:trino://127.0.0.1:8443/iceberg",
                        "fleet-dashboard",
                        Optional.empty(),
                        Optional.empty(),
                        URI.create("http://127.0.0.1:8081"),
                        Duration.ofMinutes(2),
                        Duration.ofSeconds(2),
                        Duration.ofDays(1),
                        Optional.empty()));
    }

    @Test
    void everyKeyIsRead() {
        DashboardConfig config = DashboardConfig.from(ConfigSource.of(Map.ofEntries(
                Map.entry("dashboard.host", "dashboard.local"),
                Map.entry("dashboard.port", "18088"),
                Map.entry("dashboard.redis-uri", "rediss://fleet:secret@redis.local:16379/2"),
                Map.entry("dashboard.trino-jdbc-url", "jdbc:trino://trino.local:18080/iceberg?SSL=true"),
                Map.entry("dashboard.trino-user", "replay"),
                Map.entry("dashboard.trino-password", "replay-password"),
                Map.entry("dashboard.trino-ca", "/etc/trino/ca.pem"),
                Map.entry("dashboard.flink-rest-uri", "https://flink.local:18081"),
                Map.entry("dashboard.stale-after", "90s"),
                Map.entry("dashboard.poll-interval", "500ms"),
                Map.entry("dashboard.replay-lookback", "6h"))));

        assertThat(config)
                .isEqualTo(new DashboardConfig(
                        "dashboard.local",
                        18088,
                        URI.create("rediss://fleet:secret@redis.local:16379/2"),
                        "jdbc:trino://trino.local:18080/iceberg?SSL=true",
                        "replay",
                        Optional.of("replay-password"),
                        Optional.of(Path.of("/etc/trino/ca.pem")),
                        URI.create("https://flink.local:18081"),
                        Duration.ofSeconds(90),
                        Duration.ofMillis(500),
                        Duration.ofHours(6),
                        Optional.empty()));
    }

    @Test
    void aPartOfTheFlinkClientCertificateIsRefused() {
        assertThatThrownBy(() -> configWith("dashboard.flink-rest-store-password", "not-printed"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.flink-rest-key-store")
                .hasMessageContaining("dashboard.flink-rest-trust-store")
                .hasMessageNotContaining("not-printed");
    }

    @Test
    void portZeroPicksAFreePort() {
        assertThat(configWith("dashboard.port", "0").port()).isZero();
    }

    @Test
    void secretsAreRedactedInToString() {
        DashboardConfig config = DashboardConfig.from(ConfigSource.of(Map.of(
                "dashboard.redis-uri", "redis://fleet:s3cret@redis.local:6379",
                "dashboard.trino-jdbc-url", "jdbc:trino://trino.local:8443/iceberg?user=audit&password=tr1no")));

        assertThat(config.toString())
                .contains("redis://fleet:***@redis.local:6379")
                .contains("jdbc:trino://trino.local:8443/iceberg?***")
                .doesNotContain("s3cret")
                .doesNotContain("tr1no");
    }

    @Test
    void aPasswordWithoutUserIsRedactedWhole() {
        assertThat(Redaction.uri(URI.create("redis://:s3cret@redis.local:6379")))
                .isEqualTo("redis://:***@redis.local:6379");
        assertThat(Redaction.uri(URI.create("redis://s3cret@redis.local:6379")))
                .isEqualTo("redis://***@redis.local:6379");
        assertThat(Redaction.uri(URI.create("redis://redis.local:6379"))).isEqualTo("redis://redis.local:6379");
    }

    @Test
    void wildcardHostIsRejected() {
        assertThatThrownBy(() -> configWith("dashboard.host", "0.0.0.0"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.host = '0.0.0.0'")
                .hasMessageContaining("127.0.0.1");
    }

    @Test
    void redisUriMustBeARedisUriWithAHost() {
        assertThatThrownBy(() -> configWith("dashboard.redis-uri", "http://127.0.0.1:6379"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.redis-uri")
                .hasMessageContaining("redis://127.0.0.1:6379");
        assertThatThrownBy(() -> configWith("dashboard.redis-uri", "redis:nohost"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.redis-uri");
    }

    @Test
    void invalidRedisUriDoesNotLeakItsPassword() {
        assertThatThrownBy(() -> configWith("dashboard.redis-uri", "http://fleet:s3cret@127.0.0.1:6379"))
                .isInstanceOf(ConfigException.class)
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void trinoUrlMustBeATrinoJdbcUrl() {
        assertThatThrownBy(() -> configWith("dashboard.trino-jdbc-url", "jdbc:postgresql://127.0.0.1/fleet"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.trino-jdbc-url")
                .hasMessageContaining("jdbc:trino://host:port/iceberg");
    }

    @Test
    void flinkUriMustBeHttp() {
        assertThatThrownBy(() -> configWith("dashboard.flink-rest-uri", "tcp://127.0.0.1:8081"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.flink-rest-uri");
    }

    @Test
    void durationsMustBePositiveAndThePollIntervalSensible() {
        assertThatThrownBy(() -> configWith("dashboard.stale-after", "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.stale-after");
        assertThatThrownBy(() -> configWith("dashboard.replay-lookback", "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.replay-lookback");
        assertThatThrownBy(() -> configWith("dashboard.poll-interval", "50ms"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.poll-interval")
                .hasMessageContaining("at least 200ms");
        assertThatThrownBy(() -> configWith("dashboard.poll-interval", "3m"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be shorter than dashboard.stale-after");
    }

    @Test
    void unparsableValuesNameTheKey() {
        assertThatThrownBy(() -> configWith("dashboard.stale-after", "soon"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.stale-after = 'soon'");
    }

    private static DashboardConfig configWith(String key, String value) {
        return DashboardConfig.from(ConfigSource.of(Map.of(key, value)));
    }

    @Test
    void trinoConnectionsNeedThePasswordWhichIsNeverPrinted() {
        assertThatThrownBy(() -> DashboardConfig.from(ConfigSource.empty()).trinoConnections())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dashboard.trino-password");

        DashboardConfig config = DashboardConfig.from(ConfigSource.of(
                Map.of("dashboard.trino-password", "replay-password", "dashboard.trino-ca", "/etc/trino/ca.pem")));
        assertThat(config.trinoConnections().user()).isEqualTo("fleet-dashboard");
        assertThat(config.trinoConnections().trustStore()).contains(Path.of("/etc/trino/ca.pem"));
        assertThat(config.toString()).doesNotContain("replay-password").contains("trinoPassword=****");
    }
}

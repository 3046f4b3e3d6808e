package io.fleetlake.servers.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3ServerConfigTest {
    @Test
    void defaults() {
        S3ServerConfig config = S3ServerConfig.from(ConfigSource.of(
                Map.of("s3.data-dir", "/var/s3", "s3.access-key", "generated-access", "s3.secret-key", "generated")));

        assertThat(config)
                .isEqualTo(new S3ServerConfig(
                        "127.0.0.1",
                        9000,
                        Path.of("/var/s3"),
                        "generated-access",
                        "generated",
                        "us-east-1",
                        List.of("warehouse")));
    }

    @Test
    void everyKeyIsRead() {
        S3ServerConfig config = S3ServerConfig.from(ConfigSource.of(Map.of(
                "s3.host", "storage.local",
                "s3.port", "0",
                "s3.data-dir", "/data/s3",
                "s3.access-key", "admin",
                "s3.secret-key", "admin-secret",
                "s3.region", "eu-west-1",
                "s3.buckets", " warehouse , checkpoints,")));

        assertThat(config)
                .isEqualTo(new S3ServerConfig(
                        "storage.local",
                        0,
                        Path.of("/data/s3"),
                        "admin",
                        "admin-secret",
                        "eu-west-1",
                        List.of("warehouse", "checkpoints")));
    }

    @Test
    void secretKeyIsRedacted() {
        S3ServerConfig config = configWith("s3.secret-key", "very-secret-value");

        assertThat(config.toString()).doesNotContain("very-secret-value").contains("secretKey=***");
    }

    @Test
    void dataDirectoryIsRequired() {
        assertThatThrownBy(() -> S3ServerConfig.from(ConfigSource.empty()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("s3.data-dir")
                .hasMessageContaining("FLEET_S3_DATA_DIR");
    }

    @Test
    void invalidBucketNamesAreRejected() {
        assertThatThrownBy(() -> configWith("s3.buckets", "warehouse,Upper_Case"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'Upper_Case', which is not a valid bucket name");
        assertThatThrownBy(() -> configWith("s3.buckets", "ab"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'ab'");
        assertThatThrownBy(() -> configWith("s3.buckets", "warehouse,warehouse"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("names a bucket twice");
    }

    @Test
    void thereAreNoDefaultKeys() {
        assertThatThrownBy(() -> S3ServerConfig.from(ConfigSource.of(Map.of("s3.data-dir", "/var/s3"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("s3.access-key and s3.secret-key must be set")
                .hasMessageContaining("no default keys");
    }

    @Test
    void emptyCredentialsAreRejectedBecauseAuthenticationIsAlwaysOn() {
        assertThatThrownBy(() -> configWith("s3.access-key", " "))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("s3.access-key and s3.secret-key must be set");
    }

    @Test
    void invalidRegionIsRejected() {
        assertThatThrownBy(() -> configWith("s3.region", "US East"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("s3.region = 'US East'");
    }

    private static S3ServerConfig configWith(String key, String value) {
        Map<String, String> values = new HashMap<>();
        values.put("s3.data-dir", "/var/s3");
        values.put("s3.access-key", "access");
        values.put("s3.secret-key", "secret");
        values.put(key, value);
        return S3ServerConfig.from(ConfigSource.of(values));
    }
}

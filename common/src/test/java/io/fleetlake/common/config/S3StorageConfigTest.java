package io.fleetlake.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3StorageConfigTest {
    @Test
    void defaults() {
        S3StorageConfig config = S3StorageConfig.from(ConfigSource.empty(), "catalog");

        assertThat(config)
                .isEqualTo(
                        new S3StorageConfig(Optional.empty(), Optional.empty(), Optional.empty(), "us-east-1", true));
    }

    @Test
    void readsTheComponentsOwnKeys() {
        S3StorageConfig config = S3StorageConfig.from(
                ConfigSource.of(Map.of(
                        "maintenance.s3-endpoint", "http://127.0.0.1:9000",
                        "maintenance.s3-access-key", "fleet",
                        "maintenance.s3-secret-key", "secret-value",
                        "maintenance.s3-region", "eu-central-1",
                        "maintenance.s3-path-style-access", "false",
                        "catalog.s3-region", "not-mine")),
                "maintenance");

        assertThat(config)
                .isEqualTo(new S3StorageConfig(
                        Optional.of(URI.create("http://127.0.0.1:9000")),
                        Optional.of("fleet"),
                        Optional.of("secret-value"),
                        "eu-central-1",
                        false));
    }

    @Test
    void anInvalidEndpointIsNamedByItsKey() {
        assertThatThrownBy(() -> S3StorageConfig.from(
                        ConfigSource.of(Map.of("catalog.s3-endpoint", "http://bad host")), "catalog"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.s3-endpoint");
    }

    @Test
    void theSecretKeyIsRedacted() {
        S3StorageConfig config = new S3StorageConfig(
                Optional.empty(), Optional.of("fleet"), Optional.of("secret-value"), "us-east-1", true);

        assertThat(config.describe())
                .isEqualTo("s3Endpoint=, s3AccessKey=fleet, s3SecretKey=****, s3Region=us-east-1,"
                        + " s3PathStyleAccess=true");
        assertThat(config.toString()).contains("fleet").doesNotContain("secret-value");
    }
}

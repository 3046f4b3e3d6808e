package io.fleetlake.maintenance.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.maintenance.MaintenanceConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogConnectionTest {
    @Test
    void withoutEndpointKeysOrCredentialTheClientUsesTheDefaults() {
        MaintenanceConfig config =
                MaintenanceConfig.from(ConfigSource.of(Map.of("maintenance.catalog-uri", "http://127.0.0.1:8181")));

        assertThat(CatalogConnection.properties(config))
                .containsExactly(
                        entry("uri", "http://127.0.0.1:8181"),
                        entry("warehouse", "s3://warehouse/"),
                        entry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
                        entry("s3.path-style-access", "true"),
                        entry("client.region", "us-east-1"));
    }

    @Test
    void theMaintenancesStorageAndCredentialReachTheClient() {
        MaintenanceConfig config = MaintenanceConfig.from(ConfigSource.of(Map.of(
                "maintenance.catalog-uri", "http://127.0.0.1:8181",
                "maintenance.catalog-credential", "fleet-maintainer:maintainer-secret",
                "maintenance.s3-endpoint", "http://127.0.0.1:9000",
                "maintenance.s3-access-key", "access",
                "maintenance.s3-secret-key", "secret",
                "maintenance.s3-path-style-access", "false")));

        assertThat(CatalogConnection.properties(config))
                .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
                .containsEntry("s3.path-style-access", "false")
                .containsEntry("s3.access-key-id", "access")
                .containsEntry("s3.secret-access-key", "secret")
                .containsEntry("credential", "fleet-maintainer:maintainer-secret")
                .containsEntry("oauth2-server-uri", "http://127.0.0.1:8181/v1/oauth/tokens");
    }
}

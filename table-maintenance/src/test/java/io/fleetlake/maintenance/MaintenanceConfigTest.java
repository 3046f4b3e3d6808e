package io.fleetlake.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class MaintenanceConfigTest {
    private static final Map<String, String> REQUIRED = Map.of(MaintenanceConfig.CATALOG_URI, "http://127.0.0.1:8181");

    @Test
    void defaultsArePinned() {
        MaintenanceConfig config = MaintenanceConfig.from(ConfigSource.of(REQUIRED));

        assertThat(config.catalogUri()).isEqualTo(URI.create("http://127.0.0.1:8181"));
        assertThat(config.warehouse()).isEqualTo("s3://warehouse/");
        assertThat(config.s3Storage().endpoint()).isEmpty();
        assertThat(config.s3Storage().accessKey()).isEmpty();
        assertThat(config.catalogCredential()).isEmpty();
        assertThat(config.s3Storage().secretKey()).isEmpty();
        assertThat(config.s3Storage().region()).isEqualTo("us-east-1");
        assertThat(config.s3Storage().pathStyleAccess()).isTrue();
        assertThat(config.tables())
                .containsExactly(
                        TableIdentifier.of("fleet", "positions"),
                        TableIdentifier.of("fleet", "rejected_positions"),
                        TableIdentifier.of("fleet", "vehicle_minutes"));
        assertThat(config.interval()).isEqualTo(Duration.ofMinutes(30));
        assertThat(config.initialDelay()).isEqualTo(Duration.ofMinutes(1));
        assertThat(config.targetFileSizeBytes()).isEqualTo(134_217_728L);
        assertThat(config.minInputFiles()).isEqualTo(5);
        assertThat(config.deleteFileThreshold()).isEqualTo(10);
        assertThat(config.snapshotRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(config.retainLast()).isEqualTo(1);
        assertThat(config.orphanMinAge()).isEqualTo(Duration.ofDays(3));
        assertThat(config.manifestRewriteMinCount()).isEqualTo(20);
        assertThat(config.commitAttempts()).isEqualTo(5);
        assertThat(config.metricsHost()).isEqualTo("127.0.0.1");
        assertThat(config.metricsPort()).isEqualTo(9464);
    }

    @Test
    void everyKeyIsRead() {
        Map<String, String> values = new HashMap<>(Map.ofEntries(
                Map.entry(MaintenanceConfig.CATALOG_URI, "https://catalog:8181"),
                Map.entry(MaintenanceConfig.WAREHOUSE, "s3://lake/"),
                Map.entry(MaintenanceConfig.S3_ENDPOINT, "http://minio:9000"),
                Map.entry(MaintenanceConfig.S3_ACCESS_KEY, "fleet"),
                Map.entry(MaintenanceConfig.S3_SECRET_KEY, "secret"),
                Map.entry(MaintenanceConfig.S3_REGION, "eu-west-1"),
                Map.entry(MaintenanceConfig.S3_PATH_STYLE_ACCESS, "false"),
                Map.entry(MaintenanceConfig.TABLES, " fleet.positions , other.table "),
                Map.entry(MaintenanceConfig.INTERVAL, "10m"),
                Map.entry(MaintenanceConfig.INITIAL_DELAY, "0s"),
                Map.entry(MaintenanceConfig.TARGET_FILE_SIZE, "67108864"),
                Map.entry(MaintenanceConfig.MIN_INPUT_FILES, "3"),
                Map.entry(MaintenanceConfig.DELETE_FILE_THRESHOLD, "4"),
                Map.entry(MaintenanceConfig.SNAPSHOT_RETENTION, "2d"),
                Map.entry(MaintenanceConfig.RETAIN_LAST, "10"),
                Map.entry(MaintenanceConfig.ORPHAN_MIN_AGE, "6h"),
                Map.entry(MaintenanceConfig.MANIFEST_REWRITE_MIN_COUNT, "50"),
                Map.entry(MaintenanceConfig.COMMIT_ATTEMPTS, "2"),
                Map.entry(MaintenanceConfig.METRICS_HOST, "127.0.0.2"),
                Map.entry(MaintenanceConfig.METRICS_PORT, "0")));

        MaintenanceConfig config = MaintenanceConfig.from(ConfigSource.of(values));

        assertThat(config.catalogUri()).isEqualTo(URI.create("https://catalog:8181"));
        assertThat(config.warehouse()).isEqualTo("s3://lake/");
        assertThat(config.s3Storage().endpoint()).contains(URI.create("http://minio:9000"));
        assertThat(config.s3Storage().accessKey()).contains("fleet");
        assertThat(config.s3Storage().secretKey()).contains("secret");
        assertThat(config.s3Storage().region()).isEqualTo("eu-west-1");
        assertThat(config.s3Storage().pathStyleAccess()).isFalse();
        assertThat(config.tables())
                .isEqualTo(List.of(TableIdentifier.of("fleet", "positions"), TableIdentifier.of("other", "table")));
        assertThat(config.interval()).isEqualTo(Duration.ofMinutes(10));
        assertThat(config.initialDelay()).isZero();
        assertThat(config.targetFileSizeBytes()).isEqualTo(67_108_864L);
        assertThat(config.minInputFiles()).isEqualTo(3);
        assertThat(config.deleteFileThreshold()).isEqualTo(4);
        assertThat(config.snapshotRetention()).isEqualTo(Duration.ofDays(2));
        assertThat(config.retainLast()).isEqualTo(10);
        assertThat(config.orphanMinAge()).isEqualTo(Duration.ofHours(6));
        assertThat(config.manifestRewriteMinCount()).isEqualTo(50);
        assertThat(config.commitAttempts()).isEqualTo(2);
        assertThat(config.metricsHost()).isEqualTo("127.0.0.2");
        assertThat(config.metricsPort()).isZero();
        assertThat(config.toString()).contains("s3SecretKey=****").doesNotContain("secret,");
    }

    @Test
    void theCatalogCredentialIsReadAndOnlyItsClientIdPrinted() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put(MaintenanceConfig.CATALOG_CREDENTIAL, "fleet-maintainer:maintainer-secret");

        MaintenanceConfig config = MaintenanceConfig.from(ConfigSource.of(values));

        assertThat(config.catalogCredential().orElseThrow().value()).isEqualTo("fleet-maintainer:maintainer-secret");
        assertThat(config.toString())
                .doesNotContain("maintainer-secret")
                .contains("catalogCredential=fleet-maintainer");
    }

    @Test
    void theCatalogIsRequired() {
        assertThatThrownBy(() -> MaintenanceConfig.from(ConfigSource.of(Map.of())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(MaintenanceConfig.CATALOG_URI)
                .hasMessageContaining("FLEET_MAINTENANCE_CATALOG_URI");
    }

    @Test
    void invalidValuesNameTheKey() {
        assertInvalid(MaintenanceConfig.TABLES, "positions", "not a namespace.table name");
        assertInvalid(MaintenanceConfig.TABLES, " , ", "names no table");
        assertInvalid(MaintenanceConfig.INTERVAL, "0s", "longer than zero");
        assertInvalid(MaintenanceConfig.ORPHAN_MIN_AGE, "0s", "longer than zero");
        assertInvalid(MaintenanceConfig.SNAPSHOT_RETENTION, "0s", "longer than zero");
        assertInvalid(MaintenanceConfig.TARGET_FILE_SIZE, "1000", "at least 1 MiB");
        assertInvalid(MaintenanceConfig.MIN_INPUT_FILES, "1", "at least 2");
        assertInvalid(MaintenanceConfig.RETAIN_LAST, "0", "at least 1");
        assertInvalid(MaintenanceConfig.CATALOG_URI, "ftp://catalog", "http:// or https://");
        assertInvalid(MaintenanceConfig.S3_ACCESS_KEY, "fleet", "Set both");
    }

    private static void assertInvalid(String key, String value, String message) {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put(key, value);
        assertThatThrownBy(() -> MaintenanceConfig.from(ConfigSource.of(values)))
                .as("%s = %s", key, value)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message)
                .hasMessageContaining(key.equals(MaintenanceConfig.S3_ACCESS_KEY) ? "s3-secret-key" : key);
    }
}

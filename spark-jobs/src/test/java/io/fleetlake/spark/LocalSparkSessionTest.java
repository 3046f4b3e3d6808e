package io.fleetlake.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSparkSessionTest {
    @Test
    void wiresTheRestCatalogWithS3FileIo() {
        DailySummaryConfig config = DailySummaryConfig.from(
                ConfigSource.of(Map.of(
                        "spark.catalog-uri", "http://127.0.0.1:18181",
                        "spark.s3-endpoint", "http://127.0.0.1:19000",
                        "spark.s3-access-key", "fleet",
                        "spark.s3-secret-key", "fleet-secret-key")),
                Clock.systemUTC());

        assertThat(LocalSparkSession.settings(config))
                .containsEntry("spark.master", "local[2]")
                .containsEntry("spark.ui.enabled", "false")
                .containsEntry("spark.driver.host", "127.0.0.1")
                .containsEntry("spark.driver.bindAddress", "127.0.0.1")
                .containsEntry("spark.sql.shuffle.partitions", "4")
                .containsEntry("spark.sql.session.timeZone", "UTC")
                .containsEntry("spark.sql.catalog.fleet", "org.apache.iceberg.spark.SparkCatalog")
                .containsEntry("spark.sql.catalog.fleet.type", "rest")
                .containsEntry("spark.sql.catalog.fleet.uri", "http://127.0.0.1:18181")
                .containsEntry("spark.sql.catalog.fleet.warehouse", "s3://warehouse/")
                .containsEntry("spark.sql.catalog.fleet.io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
                .containsEntry("spark.sql.catalog.fleet.s3.endpoint", "http://127.0.0.1:19000")
                .containsEntry("spark.sql.catalog.fleet.s3.path-style-access", "true")
                .containsEntry("spark.sql.catalog.fleet.s3.access-key-id", "fleet")
                .containsEntry("spark.sql.catalog.fleet.s3.secret-access-key", "fleet-secret-key")
                .containsEntry("spark.sql.catalog.fleet.client.region", "us-east-1");
    }

    @Test
    void authenticatesToTheCatalogWithTheConfiguredCredential() {
        DailySummaryConfig config = DailySummaryConfig.from(
                ConfigSource.of(Map.of(
                        "spark.catalog-uri", "http://127.0.0.1:18181",
                        "spark.catalog-credential", "fleet-writer:writer-secret")),
                Clock.systemUTC());

        assertThat(LocalSparkSession.settings(config))
                .containsEntry("spark.sql.catalog.fleet.rest.auth.type", "oauth2")
                .containsEntry("spark.sql.catalog.fleet.credential", "fleet-writer:writer-secret")
                .containsEntry("spark.sql.catalog.fleet.oauth2-server-uri", "http://127.0.0.1:18181/v1/oauth/tokens");
        assertThat(config.toString()).doesNotContain("writer-secret").contains("catalogCredential=fleet-writer");
    }

    @Test
    void leavesCredentialsToTheDefaultChainWhenNoneAreConfigured() {
        DailySummaryConfig config = DailySummaryConfig.from(ConfigSource.empty(), Clock.systemUTC());

        assertThat(LocalSparkSession.settings(config))
                .doesNotContainKeys(
                        "spark.sql.catalog.fleet.s3.access-key-id", "spark.sql.catalog.fleet.s3.secret-access-key");
    }
}

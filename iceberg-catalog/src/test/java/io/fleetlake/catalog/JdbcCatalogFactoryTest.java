package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JdbcCatalogFactoryTest {
    @Test
    void sqliteUsesOneConnectionAndWaitsForLocks() {
        Map<String, String> properties = JdbcCatalogFactory.catalogProperties(config(Map.of(
                CatalogServerConfig.DATA_DIRECTORY, "/data",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.S3_ACCESS_KEY, "access",
                CatalogServerConfig.S3_SECRET_KEY, "secret")));

        assertThat(properties)
                .containsEntry("uri", "jdbc:sqlite:/data/catalog.db")
                .containsEntry("warehouse", "s3://warehouse/")
                .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
                .containsEntry("clients", "1")
                .containsEntry("jdbc.busy_timeout", "10000")
                .containsEntry("jdbc.schema-version", "V1")
                .containsEntry("jdbc.strict-mode", "true")
                .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
                .containsEntry("s3.path-style-access", "true")
                .containsEntry("client.region", "us-east-1")
                .containsEntry("s3.access-key-id", "access")
                .containsEntry("s3.secret-access-key", "secret");
    }

    @Test
    void postgresqlKeepsThePoolDefaultAndPassesCredentials() {
        Map<String, String> properties = JdbcCatalogFactory.catalogProperties(config(Map.of(
                CatalogServerConfig.JDBC_URL, "jdbc:postgresql://db/catalog",
                CatalogServerConfig.JDBC_USER, "iceberg",
                CatalogServerConfig.JDBC_PASSWORD, "password",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.CLIENTS_FILE, "/etc/catalog/clients.properties")));

        assertThat(properties)
                .containsEntry("uri", "jdbc:postgresql://db/catalog")
                .containsEntry("jdbc.user", "iceberg")
                .containsEntry("jdbc.password", "password")
                .doesNotContainKeys("clients", "jdbc.busy_timeout", "s3.access-key-id");
    }

    @Test
    void otherFileIoGetsNoS3Settings() {
        Map<String, String> properties = JdbcCatalogFactory.catalogProperties(config(Map.of(
                CatalogServerConfig.DATA_DIRECTORY, "/data",
                CatalogServerConfig.WAREHOUSE, "memory://warehouse",
                CatalogServerConfig.IO_IMPLEMENTATION, "org.apache.iceberg.inmemory.InMemoryFileIO")));

        assertThat(properties).containsEntry("io-impl", "org.apache.iceberg.inmemory.InMemoryFileIO");
        assertThat(properties.keySet()).noneMatch(key -> key.startsWith("s3.") || key.startsWith("client."));
    }

    @Test
    void clientsLearnWhereTheStorageIsButNoCredentials() {
        Map<String, String> defaults = RestCatalogServer.clientDefaults(config(Map.of(
                CatalogServerConfig.DATA_DIRECTORY, "/data",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.S3_ACCESS_KEY, "access",
                CatalogServerConfig.S3_SECRET_KEY, "secret")));

        assertThat(defaults)
                .containsOnly(
                        Map.entry("s3.endpoint", "http://127.0.0.1:9000"),
                        Map.entry("s3.path-style-access", "true"),
                        Map.entry("client.region", "us-east-1"));
    }

    private static CatalogServerConfig config(Map<String, String> values) {
        return CatalogServerConfig.from(ConfigSource.of(values));
    }
}

package io.fleetlake.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CatalogServerConfigTest {
    private static final Map<String, String> REQUIRED = Map.of(
            CatalogServerConfig.DATA_DIRECTORY, "/var/lib/catalog",
            CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000");

    @Test
    void defaults() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(REQUIRED));

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8181);
        assertThat(config.dataDirectory()).contains(Path.of("/var/lib/catalog"));
        assertThat(config.jdbcUrl()).isEqualTo("jdbc:sqlite:/var/lib/catalog/catalog.db");
        assertThat(config.usesSqlite()).isTrue();
        assertThat(config.jdbcUser()).isEmpty();
        assertThat(config.jdbcPassword()).isEmpty();
        assertThat(config.warehouse()).isEqualTo("s3://warehouse/");
        assertThat(config.ioImplementation()).isEqualTo("org.apache.iceberg.aws.s3.S3FileIO");
        assertThat(config.usesS3FileIo()).isTrue();
        assertThat(config.s3Storage().endpoint()).contains(URI.create("http://127.0.0.1:9000"));
        assertThat(config.s3Storage().accessKey()).isEmpty();
        assertThat(config.s3Storage().secretKey()).isEmpty();
        assertThat(config.s3Storage().region()).isEqualTo("us-east-1");
        assertThat(config.s3Storage().pathStyleAccess()).isTrue();
        assertThat(config.bootstrapTables()).isTrue();
        assertThat(config.authentication()).isEqualTo(CatalogServerConfig.Authentication.OAUTH2);
        assertThat(config.clientsFile()).contains(Path.of("/var/lib/catalog/clients.properties"));
        assertThat(config.tokenSigningKey()).isEmpty();
        assertThat(config.tokenLifetime()).isEqualTo(Duration.ofHours(1));
        assertThat(config.tokenMaxFailures()).isEqualTo(10);
        assertThat(config.tokenFailureWindow()).isEqualTo(Duration.ofMinutes(15));
        assertThat(config.maxRequestBytes()).isEqualTo(16L * 1024 * 1024);
        assertThat(config.maxConcurrentRequests()).isEqualTo(64);
    }

    @Test
    void requestLimitsAreRead() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.of(
                CatalogServerConfig.DATA_DIRECTORY, "/var/lib/catalog",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.TOKEN_MAX_FAILURES, "3",
                CatalogServerConfig.TOKEN_FAILURE_WINDOW, "2m",
                CatalogServerConfig.MAX_REQUEST_BYTES, "1048576",
                CatalogServerConfig.MAX_CONCURRENT_REQUESTS, "8")));

        assertThat(config.tokenMaxFailures()).isEqualTo(3);
        assertThat(config.tokenFailureWindow()).isEqualTo(Duration.ofMinutes(2));
        assertThat(config.maxRequestBytes()).isEqualTo(1024 * 1024);
        assertThat(config.maxConcurrentRequests()).isEqualTo(8);
        assertThat(config.toString())
                .contains("tokenMaxFailures=3, tokenFailureWindow=PT2M, maxRequestBytes=1048576,"
                        + " maxConcurrentRequests=8");
    }

    @Test
    void requestLimitsOutOfRangeAreRefusedWithTheKey() {
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_MAX_FAILURES, "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("catalog.token-max-failures = 0 must be at least 1, such as 10");
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_FAILURE_WINDOW, "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("catalog.token-failure-window = PT0S must be a positive duration such as 15m");
        assertThatThrownBy(() -> config(CatalogServerConfig.MAX_REQUEST_BYTES, "1000"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("catalog.max-request-bytes = 1000 must be at least 65536 bytes (a table's create request"
                        + " carries its schema), such as 16777216");
        assertThatThrownBy(() -> config(CatalogServerConfig.MAX_CONCURRENT_REQUESTS, "0"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("catalog.max-concurrent-requests = 0 must be at least 1, such as 64");
    }

    @Test
    void requestLimitsThatAreNoNumberAreRefusedWithTheKey() {
        assertThatThrownBy(() -> config(CatalogServerConfig.MAX_REQUEST_BYTES, "16MiB"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.max-request-bytes = '16MiB'");
        assertThatThrownBy(() -> config(CatalogServerConfig.MAX_CONCURRENT_REQUESTS, "many"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.max-concurrent-requests = 'many'");
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_MAX_FAILURES, "ten"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.token-max-failures = 'ten'");
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_FAILURE_WINDOW, "fortnight"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.token-failure-window");
    }

    @Test
    void authenticationKeysAreReadAndTheSigningKeyIsRedacted() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.of(
                CatalogServerConfig.JDBC_URL, "jdbc:postgresql://db:5432/catalog",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.CLIENTS_FILE, "/etc/catalog/clients.properties",
                CatalogServerConfig.TOKEN_SIGNING_KEY, "0123456789abcdef0123456789abcdef-signing",
                CatalogServerConfig.TOKEN_LIFETIME, "5m")));

        assertThat(config.clientsFile()).contains(Path.of("/etc/catalog/clients.properties"));
        assertThat(config.tokenSigningKey()).contains("0123456789abcdef0123456789abcdef-signing");
        assertThat(config.tokenLifetime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.toString()).doesNotContain("-signing").contains("tokenSigningKey=****");
    }

    @Test
    void oauth2NeedsAClientsFileAndNoneNeedsNone() {
        Map<String, String> postgres = Map.of(
                CatalogServerConfig.JDBC_URL, "jdbc:postgresql://db:5432/catalog",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000");
        assertThatThrownBy(() -> CatalogServerConfig.from(ConfigSource.of(postgres)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CatalogServerConfig.CLIENTS_FILE);
        Map<String, String> anonymous = new java.util.HashMap<>(postgres);
        anonymous.put(CatalogServerConfig.AUTHENTICATION, "none");
        assertThat(CatalogServerConfig.from(ConfigSource.of(anonymous)).authentication())
                .isEqualTo(CatalogServerConfig.Authentication.NONE);
    }

    @Test
    void shortSigningKeysAndOddLifetimesAreRefused() {
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_SIGNING_KEY, "short"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CatalogServerConfig.TOKEN_SIGNING_KEY)
                .hasMessageNotContaining("short'");
        assertThatThrownBy(() -> config(CatalogServerConfig.TOKEN_LIFETIME, "0s"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CatalogServerConfig.TOKEN_LIFETIME);
        assertThatThrownBy(() -> config(CatalogServerConfig.AUTHENTICATION, "basic"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(CatalogServerConfig.AUTHENTICATION);
    }

    @Test
    void everyKeyIsRead() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.ofEntries(
                Map.entry(CatalogServerConfig.HOST, "10.1.2.3"),
                Map.entry(CatalogServerConfig.PORT, "9191"),
                Map.entry(CatalogServerConfig.DATA_DIRECTORY, "/data"),
                Map.entry(CatalogServerConfig.JDBC_URL, "jdbc:postgresql://db:5432/catalog"),
                Map.entry(CatalogServerConfig.JDBC_USER, "iceberg"),
                Map.entry(CatalogServerConfig.JDBC_PASSWORD, "database-secret"),
                Map.entry(CatalogServerConfig.WAREHOUSE, "s3a://lake/tables"),
                Map.entry(CatalogServerConfig.S3_ENDPOINT, "https://storage:9443"),
                Map.entry(CatalogServerConfig.S3_ACCESS_KEY, "access"),
                Map.entry(CatalogServerConfig.S3_SECRET_KEY, "storage-secret"),
                Map.entry(CatalogServerConfig.S3_REGION, "eu-west-1"),
                Map.entry(CatalogServerConfig.S3_PATH_STYLE_ACCESS, "false"),
                Map.entry(CatalogServerConfig.BOOTSTRAP_TABLES, "false"))));

        assertThat(config.host()).isEqualTo("10.1.2.3");
        assertThat(config.port()).isEqualTo(9191);
        assertThat(config.dataDirectory()).contains(Path.of("/data"));
        assertThat(config.jdbcUrl()).isEqualTo("jdbc:postgresql://db:5432/catalog");
        assertThat(config.usesSqlite()).isFalse();
        assertThat(config.jdbcUser()).contains("iceberg");
        assertThat(config.jdbcPassword()).contains("database-secret");
        assertThat(config.warehouse()).isEqualTo("s3a://lake/tables");
        assertThat(config.s3Storage().endpoint()).contains(URI.create("https://storage:9443"));
        assertThat(config.s3Storage().accessKey()).contains("access");
        assertThat(config.s3Storage().secretKey()).contains("storage-secret");
        assertThat(config.s3Storage().region()).isEqualTo("eu-west-1");
        assertThat(config.s3Storage().pathStyleAccess()).isFalse();
        assertThat(config.bootstrapTables()).isFalse();
    }

    @Test
    void environmentVariableOverridesFile() {
        ConfigSource source = ConfigSource.of(REQUIRED)
                .withOverrides(Map.of(CatalogServerConfig.PORT, "8181"), "file")
                .withEnvironment(Map.of("FLEET_CATALOG_PORT", "8282"));

        assertThat(CatalogServerConfig.from(source).port()).isEqualTo(8282);
    }

    @Test
    void otherFileIoNeedsNoS3Endpoint() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.of(
                CatalogServerConfig.DATA_DIRECTORY, "/data",
                CatalogServerConfig.IO_IMPLEMENTATION, "org.apache.iceberg.inmemory.InMemoryFileIO",
                CatalogServerConfig.WAREHOUSE, "memory://warehouse")));

        assertThat(config.usesS3FileIo()).isFalse();
        assertThat(config.s3Storage().endpoint()).isEmpty();
    }

    @Test
    void databaseIsRequired() {
        assertThatThrownBy(() -> CatalogServerConfig.from(
                        ConfigSource.of(Map.of(CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("set catalog.data-dir")
                .hasMessageContaining("FLEET_CATALOG_DATA_DIR")
                .hasMessageContaining("or catalog.jdbc-url");
    }

    @Test
    void s3EndpointIsRequiredForS3FileIo() {
        assertThatThrownBy(() ->
                        CatalogServerConfig.from(ConfigSource.of(Map.of(CatalogServerConfig.DATA_DIRECTORY, "/data"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Missing required configuration catalog.s3-endpoint")
                .hasMessageContaining("FLEET_CATALOG_S3_ENDPOINT");
    }

    @Test
    void unsupportedDatabaseIsRejected() {
        assertThatThrownBy(() -> config(CatalogServerConfig.JDBC_URL, "jdbc:mysql://db/catalog"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("catalog.jdbc-url = 'jdbc:mysql://db/catalog' is not supported: use a URL starting with"
                        + " jdbc:sqlite: or jdbc:postgresql:");
    }

    @Test
    void credentialsForSqliteAreRejected() {
        assertThatThrownBy(() -> config(CatalogServerConfig.JDBC_USER, "iceberg"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("apply to PostgreSQL only");
    }

    @Test
    void accessKeyWithoutSecretKeyIsRejected() {
        assertThatThrownBy(() -> config(CatalogServerConfig.S3_ACCESS_KEY, "access"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Set both catalog.s3-access-key and catalog.s3-secret-key, or neither to use the AWS"
                        + " default credential chain");
    }

    @Test
    void endpointWithoutSchemeIsRejected() {
        assertThatThrownBy(() -> config(CatalogServerConfig.S3_ENDPOINT, "localhost:9000"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.s3-endpoint = 'localhost:9000' must be an http:// or https:// URL");
    }

    @Test
    void warehouseMustBeS3ForS3FileIo() {
        assertThatThrownBy(() -> config(CatalogServerConfig.WAREHOUSE, "file:///tmp/warehouse"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must be an s3:// location when catalog.io-impl is S3FileIO");
        assertThatThrownBy(() -> config(CatalogServerConfig.WAREHOUSE, "warehouse"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is not a location URI");
    }

    @Test
    void invalidPortNamesKeyAndValue() {
        assertThatThrownBy(() -> config(CatalogServerConfig.PORT, "eighty"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.port = 'eighty'");
    }

    @Test
    void blankHostIsRejected() {
        assertThatThrownBy(() -> config(CatalogServerConfig.HOST, " "))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("catalog.host must not be blank");
    }

    @Test
    void toStringRedactsSecrets() {
        CatalogServerConfig config = CatalogServerConfig.from(ConfigSource.of(Map.of(
                CatalogServerConfig.JDBC_URL, "jdbc:postgresql://db/catalog",
                CatalogServerConfig.JDBC_USER, "iceberg",
                CatalogServerConfig.JDBC_PASSWORD, "database-secret",
                CatalogServerConfig.S3_ENDPOINT, "http://127.0.0.1:9000",
                CatalogServerConfig.S3_ACCESS_KEY, "access",
                CatalogServerConfig.S3_SECRET_KEY, "storage-secret",
                CatalogServerConfig.CLIENTS_FILE, "/etc/catalog/clients.properties")));

        assertThat(config.toString())
                .doesNotContain("database-secret")
                .doesNotContain("storage-secret")
                .contains("jdbcPassword=****")
                .contains("s3SecretKey=****")
                .contains("s3AccessKey=access");
    }

    private static CatalogServerConfig config(String key, String value) {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put(key, value);
        return CatalogServerConfig.from(ConfigSource.of(values));
    }
}

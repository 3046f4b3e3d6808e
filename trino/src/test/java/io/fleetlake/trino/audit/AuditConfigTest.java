package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.trino.EmbeddedTrinoSecrets;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditConfigTest {
    @Test
    void defaultsReachTheEmbeddedStack() {
        AuditConfig config = AuditConfig.from(ConfigSource.empty());

        assertThat(config.trinoJdbcUrl()).isEqualTo("jdbc:trino://127.0.0.1:18443/iceberg");
        assertThat(config.catalogUri()).isEqualTo(URI.create("http://127.0.0.1:18181"));
        assertThat(config.trinoUser()).isEqualTo("analyst");
        assertThat(config.trinoPassword()).isEmpty();
        assertThat(config.dataDirectory()).isEqualTo(Path.of(".fleet-data"));
        assertThat(config.queryTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(config.catalogTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(AuditConfig.defaults()).isEqualTo(config);
    }

    @Test
    void everyKeyIsRead() {
        AuditConfig config = AuditConfig.from(ConfigSource.of(Map.of(
                "audit.trino-jdbc-url", "jdbc:trino://trino.example:8443/iceberg?SSL=true",
                "audit.catalog-uri", "https://catalog.example:8443/api",
                "audit.trino-user", "auditor",
                "audit.query-timeout", "90s",
                "audit.catalog-timeout", "5s")));

        assertThat(config)
                .isEqualTo(new AuditConfig(
                        "jdbc:trino://trino.example:8443/iceberg?SSL=true",
                        URI.create("https://catalog.example:8443/api"),
                        "auditor",
                        Duration.ofSeconds(90),
                        Duration.ofSeconds(5)));
    }

    @Test
    void commandLineOverridesReplaceOneValue() {
        AuditConfig config = AuditConfig.defaults()
                .withTrinoJdbcUrl("jdbc:trino://127.0.0.1:8080/iceberg")
                .withCatalogUri(URI.create("http://127.0.0.1:8181"));

        assertThat(config.trinoJdbcUrl()).isEqualTo("jdbc:trino://127.0.0.1:8080/iceberg");
        assertThat(config.catalogUri()).isEqualTo(URI.create("http://127.0.0.1:8181"));
        assertThat(config.trinoUser()).isEqualTo(AuditConfig.DEFAULT_TRINO_USER);
    }

    @Test
    void refusesAnUrlThatIsNotTrinoJdbc() {
        assertThatThrownBy(() -> AuditConfig.defaults().withTrinoJdbcUrl("jdbc:postgresql://127.0.0.1/fleet"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.trino-jdbc-url")
                .hasMessageContaining("jdbc:trino://<host>:<port>/iceberg");
    }

    @Test
    void refusesACatalogUriWithoutHttpHost() {
        assertThatThrownBy(() -> AuditConfig.defaults().withCatalogUri(URI.create("file:///tmp/catalog")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.catalog-uri")
                .hasMessageContaining("http or https URL with a host");
    }

    @Test
    void refusesEmptyUserAndNonPositiveTimeouts() {
        assertThatThrownBy(() -> AuditConfig.from(ConfigSource.of(Map.of("audit.trino-user", " "))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.trino-user is empty");
        assertThatThrownBy(() -> AuditConfig.from(ConfigSource.of(Map.of("audit.query-timeout", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.query-timeout")
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> AuditConfig.from(ConfigSource.of(Map.of("audit.catalog-timeout", "0ms"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.catalog-timeout");
    }

    @Test
    void secretsInTheJdbcUrlAreRedacted() {
        AuditConfig config = AuditConfig.defaults()
                .withTrinoJdbcUrl("jdbc:trino://trino.example:8443/iceberg?user=auditor&password=hunter2&SSL=true");

        assertThat(config.toString())
                .contains("password=****")
                .contains("user=auditor")
                .contains("SSL=true")
                .doesNotContain("hunter2");
        assertThat(config.redactedTrinoJdbcUrl()).doesNotContain("hunter2");
    }

    @Test
    void theAnalystsPasswordAndCaComeFromTheDataFolderUnlessConfigured(@TempDir Path dataDirectory) {
        String password = EmbeddedTrinoSecrets.of(dataDirectory).password(TrinoUser.ANALYST);
        AuditConfig config = AuditConfig.from(ConfigSource.of(Map.of("audit.data-dir", dataDirectory.toString())));

        TrinoConnectionFactory connections = config.trinoConnections();

        assertThat(connections.user()).isEqualTo("analyst");
        assertThat(connections.password()).isEqualTo(password);
        assertThat(config.toString()).doesNotContain(password);

        AuditConfig configured = AuditConfig.from(ConfigSource.of(Map.of(
                "audit.data-dir", dataDirectory.toString(),
                "audit.trino-user", "admin",
                "audit.trino-password", "admins-password",
                "audit.trino-ca", "/etc/trino/ca.pem")));
        assertThat(configured.trinoConnections().password()).isEqualTo("admins-password");
        assertThat(configured.trinoConnections().trustStore()).contains(Path.of("/etc/trino/ca.pem"));
        assertThat(configured.toString()).doesNotContain("admins-password");
    }

    @Test
    void anotherUserWithoutPasswordIsRefusedWithWhatToSet(@TempDir Path dataDirectory) {
        AuditConfig config = AuditConfig.from(
                ConfigSource.of(Map.of("audit.data-dir", dataDirectory.toString(), "audit.trino-user", "admin")));

        assertThatThrownBy(config::trinoConnections)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("audit.trino-password");
    }
}

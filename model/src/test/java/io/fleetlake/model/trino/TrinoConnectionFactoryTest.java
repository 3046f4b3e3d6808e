package io.fleetlake.model.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class TrinoConnectionFactoryTest {
    private static final Path CA = Path.of("/data/trino/tls/ca.pem");

    @Test
    void connectsOverTlsWithTheUsersPasswordAndTheCaCertificate() {
        Properties properties = TrinoConnectionFactory.of(
                        "jdbc:trino://127.0.0.1:18443/iceberg", TrinoUser.ANALYST, "s3cret", CA)
                .properties();

        assertThat(properties)
                .containsEntry("user", "analyst")
                .containsEntry("password", "s3cret")
                .containsEntry("SSL", "true")
                .containsEntry("SSLTrustStorePath", CA.toString())
                .containsEntry("source", "fleet-analyst");
    }

    @Test
    void parametersOfTheUrlWinBecauseTrinoRefusesAPropertyGivenTwice() {
        Properties properties = new TrinoConnectionFactory(
                        "jdbc:trino://trino.example.com:443/iceberg?SSLVerification=FULL&source=mine",
                        "analyst",
                        "s3cret",
                        Optional.empty(),
                        "fleet-audit")
                .properties();

        assertThat(properties).doesNotContainKey("source").doesNotContainKey("SSLTrustStorePath");
        assertThat(properties).containsEntry("SSL", "true").containsEntry("user", "analyst");
    }

    @Test
    void anotherCatalogKeepsHostUserAndParameters() {
        TrinoConnectionFactory admin = TrinoConnectionFactory.of(
                        "jdbc:trino://127.0.0.1:18443/iceberg?timezone=UTC", TrinoUser.ADMIN, "s3cret", CA)
                .withCatalog("iceberg_admin");

        assertThat(admin.jdbcUrl()).isEqualTo("jdbc:trino://127.0.0.1:18443/iceberg_admin?timezone=UTC");
        assertThat(admin.user()).isEqualTo("admin");
        assertThat(TrinoConnectionFactory.of("jdbc:trino://h:1", TrinoUser.ADMIN, "p", CA)
                        .withCatalog("iceberg_admin")
                        .jdbcUrl())
                .isEqualTo("jdbc:trino://h:1/iceberg_admin");
        assertThat(admin.serverUri()).isEqualTo(URI.create("https://127.0.0.1:18443"));
    }

    @Test
    void neverPrintsThePassword() {
        TrinoConnectionFactory factory = TrinoConnectionFactory.of(
                "jdbc:trino://127.0.0.1:18443/iceberg?password=inurl", TrinoUser.MONITOR, "s3cret", CA);

        assertThat(factory.toString())
                .contains("fleet-monitor", "jdbc:trino://127.0.0.1:18443/iceberg?***")
                .doesNotContain("s3cret", "inurl");
    }

    @Test
    void refusesAConnectionWithoutPasswordOrWithAnotherUrl() {
        assertThatThrownBy(() -> TrinoConnectionFactory.of("jdbc:trino://h:1/iceberg", TrinoUser.ANALYST, "", CA))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("analyst needs a password");
        assertThatThrownBy(() -> TrinoConnectionFactory.of("jdbc:postgresql://h/db", TrinoUser.ANALYST, "p", CA))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not a Trino JDBC URL");
    }
}

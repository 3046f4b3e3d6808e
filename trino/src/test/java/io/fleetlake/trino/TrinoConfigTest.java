package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.trino.TrinoUser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrinoConfigTest {
    private static final Map<String, String> REQUIRED = Map.of(
            "trino.data-dir", "/var/fleet/trino",
            "trino.server-dir", "/opt/fleet/trino-server",
            "trino.catalog-uri", "http://127.0.0.1:8181",
            "trino.s3-endpoint", "http://127.0.0.1:9000");

    @Test
    void defaults() {
        TrinoConfig config = from((REQUIRED));

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.dataDirectory()).isEqualTo(Path.of("/var/fleet/trino"));
        assertThat(config.serverDirectory()).isEqualTo(Path.of("/opt/fleet/trino-server"));
        assertThat(config.javaHome()).isEmpty();
        assertThat(config.maxHeap()).isEqualTo("1G");
        assertThat(config.catalogUri()).isEqualTo(URI.create("http://127.0.0.1:8181"));
        assertThat(config.warehouse()).isEqualTo("s3://warehouse/");
        assertThat(config.s3Endpoint()).isEqualTo(URI.create("http://127.0.0.1:9000"));
        assertThat(config.s3AccessKey()).isEmpty();
        assertThat(config.s3SecretKey()).isEmpty();
        assertThat(config.s3Region()).isEqualTo("us-east-1");
        assertThat(config.environment()).isEqualTo("fleet");
        assertThat(config.startupTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(config.security().httpsPort()).isEqualTo(8443);
        assertThat(config.security().tlsDirectory()).isEqualTo(Path.of("/var/fleet/trino/tls"));
        assertThat(config.security().caCertificate()).isEqualTo(Path.of("/var/fleet/trino/tls/ca.pem"));
        assertThat(config.security().adminCatalogCredential()).isEmpty();
    }

    @Test
    void everyKeyIsRead() {
        TrinoConfig config = from((Map.ofEntries(
                Map.entry("trino.host", "127.0.0.2"),
                Map.entry("trino.port", "18080"),
                Map.entry("trino.data-dir", "/data/trino"),
                Map.entry("trino.server-dir", "/srv/trino-server"),
                Map.entry("trino.java-home", "/usr/lib/jvm/temurin-24"),
                Map.entry("trino.max-heap", "1536M"),
                Map.entry("trino.catalog-uri", "https://catalog.example:8443/api"),
                Map.entry("trino.warehouse", "s3://lake/"),
                Map.entry("trino.s3-endpoint", "https://s3.example:9443"),
                Map.entry("trino.s3-access-key", "fleet"),
                Map.entry("trino.s3-secret-key", "fleet-secret"),
                Map.entry("trino.s3-region", "eu-west-1"),
                Map.entry("trino.environment", "fleet_test"),
                Map.entry("trino.startup-timeout", "5m"),
                Map.entry("trino.https-port", "18443"),
                Map.entry("trino.tls-dir", "/tls"),
                Map.entry("trino.admin-catalog-credential", "fleet-maintainer:m"))));

        assertThat(config)
                .isEqualTo(new TrinoConfig(
                        "127.0.0.2",
                        18080,
                        Path.of("/data/trino"),
                        Path.of("/srv/trino-server"),
                        Optional.of(Path.of("/usr/lib/jvm/temurin-24")),
                        "1536M",
                        URI.create("https://catalog.example:8443/api"),
                        "s3://lake/",
                        URI.create("https://s3.example:9443"),
                        Optional.of("fleet"),
                        Optional.of("fleet-secret"),
                        "eu-west-1",
                        "fleet_test",
                        Duration.ofMinutes(5),
                        Optional.empty(),
                        new TrinoSecurity(
                                18443,
                                Path.of("/tls"),
                                SecurityValues.SHARED_SECRET,
                                passwords(),
                                Optional.of(new CatalogCredential("fleet-maintainer", "m")))));
    }

    @Test
    void relativeFoldersBecomeAbsolute() {
        TrinoConfig config = from((with("trino.data-dir", "data/../trino-data")));

        assertThat(config.dataDirectory())
                .isAbsolute()
                .isEqualTo(Path.of("trino-data").toAbsolutePath());
    }

    @Test
    void everyRequiredKeyIsReportedWithItsEnvironmentVariable() {
        for (String key : REQUIRED.keySet()) {
            Map<String, String> values = new HashMap<>(REQUIRED);
            values.remove(key);

            assertThatThrownBy(() -> from((values)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining(ConfigSource.environmentName(key));
        }
    }

    @Test
    void wildcardHostIsRefused() {
        assertThatThrownBy(() -> from((with("trino.host", "0.0.0.0"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("trino.host = '0.0.0.0' would listen on every interface: set one address, for example"
                        + " 127.0.0.1");
    }

    @Test
    void heapSizeMustUseXmxNotation() {
        assertThatThrownBy(() -> from((with("trino.max-heap", "1 GB"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.max-heap = '1 GB'")
                .hasMessageContaining("1G or 1536M");
    }

    @Test
    void catalogUriMustBeHttp() {
        assertThatThrownBy(() -> from((with("trino.catalog-uri", "thrift://hms:9083"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.catalog-uri = 'thrift://hms:9083' must be an http or https URL");
    }

    @Test
    void s3EndpointMustHaveHost() {
        assertThatThrownBy(() -> from((with("trino.s3-endpoint", "localhost:9000"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.s3-endpoint");
    }

    @Test
    void accessKeyWithoutSecretKeyIsRefused() {
        assertThatThrownBy(() -> from((with("trino.s3-access-key", "fleet"))))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Set both trino.s3-access-key and trino.s3-secret-key, or neither to use the AWS default"
                        + " credential chain");
    }

    @Test
    void environmentMustBeATrinoEnvironmentName() {
        assertThatThrownBy(() -> from((with("trino.environment", "Fleet-Prod"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.environment = 'Fleet-Prod'");
    }

    @Test
    void startupTimeoutMustBePositive() {
        assertThatThrownBy(() -> from((with("trino.startup-timeout", "0s"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.startup-timeout");
    }

    @Test
    void portOutOfRangeIsRefused() {
        assertThatThrownBy(() -> from((with("trino.port", "65536"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.port = '65536'");
    }

    @Test
    void toStringRedactsTheSecretKey() {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put("trino.s3-access-key", "fleet");
        values.put("trino.s3-secret-key", "do-not-print-me");

        String text = from((values)).toString();

        assertThat(text).doesNotContain("do-not-print-me").contains("s3SecretKey=****", "s3AccessKey=fleet");
    }

    private static TrinoConfig from(Map<String, String> values) {
        return TrinoConfig.from(ConfigSource.of(SecurityValues.with(values)));
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> values = new HashMap<>(REQUIRED);
        values.put(key, value);
        return values;
    }

    private static Map<TrinoUser, String> passwords() {
        Map<TrinoUser, String> passwords = new EnumMap<>(TrinoUser.class);
        for (TrinoUser user : TrinoUser.values()) {
            passwords.put(user, SecurityValues.password(user));
        }
        return passwords;
    }

    @Test
    void everyUserNeedsAPasswordAndTheSharedSecretIsRequired() {
        Map<String, String> values = SecurityValues.with(REQUIRED);
        values.remove("trino.password.fleet-monitor");
        assertThatThrownBy(() -> TrinoConfig.from(ConfigSource.of(values)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.password.fleet-monitor");

        Map<String, String> withoutSecret = SecurityValues.with(REQUIRED);
        withoutSecret.remove("trino.shared-secret");
        assertThatThrownBy(() -> TrinoConfig.from(ConfigSource.of(withoutSecret)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("trino.shared-secret");

        Map<String, String> shortSecret = SecurityValues.with(REQUIRED);
        shortSecret.put("trino.shared-secret", "short");
        assertThatThrownBy(() -> TrinoConfig.from(ConfigSource.of(shortSecret)))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("at least 16")
                .hasMessageNotContaining("short");
    }

    @Test
    void theHttpAndHttpsPortsMustDiffer() {
        Map<String, String> values = with("trino.port", "18443");
        values.put("trino.https-port", "18443");

        assertThatThrownBy(() -> from(values))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must differ");
    }

    @Test
    void toStringShowsNoPasswordAndNoSharedSecret() {
        String text = from(REQUIRED).toString();

        assertThat(text)
                .doesNotContain("password-of-", SecurityValues.SHARED_SECRET)
                .contains("sharedSecret=****");
    }
}

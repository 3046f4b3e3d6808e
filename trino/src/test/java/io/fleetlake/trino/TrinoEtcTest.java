package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrinoEtcTest {
    private static final Map<String, String> VALUES = Map.of(
            "trino.data-dir", "/var/fleet/trino",
            "trino.server-dir", "/opt/fleet/trino-server",
            "trino.catalog-uri", "http://127.0.0.1:8181",
            "trino.s3-endpoint", "http://127.0.0.1:9000",
            "trino.s3-access-key", "fleet",
            "trino.s3-secret-key", "fleet-secret");

    @TempDir
    Path directory;

    @Test
    void configProperties() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);

        assertThat(etc.files().get("config.properties"))
                .isEqualTo(
                        """
                        coordinator=true
                        node-scheduler.include-coordinator=true
                        http-server.http.port=18080
                        discovery.uri=http://127.0.0.1:18080
                        plugin.dir=/opt/fleet/trino-server/plugin
                        catalog.config-dir=/var/fleet/trino/etc/catalog
                        http-server.log.path=/var/fleet/trino/var/log/http-request.log
                        """);
    }

    @Test
    void nodePropertiesBindTheConfiguredAddress() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);

        assertThat(etc.files().get("node.properties"))
                .isEqualTo(
                        """
                        node.environment=fleet
                        node.id=fleet-coordinator
                        node.data-dir=/var/fleet/trino
                        node.bind-ip=127.0.0.1
                        node.internal-address=127.0.0.1
                        """);
        assertThat(etc.nodeProperties())
                .containsExactly(
                        Map.entry("node.environment", "fleet"),
                        Map.entry("node.id", "fleet-coordinator"),
                        Map.entry("node.data-dir", "/var/fleet/trino"),
                        Map.entry("node.bind-ip", "127.0.0.1"),
                        Map.entry("node.internal-address", "127.0.0.1"));
    }

    @Test
    void icebergCatalogUsesRestCatalogAndNativeS3() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);

        assertThat(etc.files().get("catalog/iceberg.properties"))
                .isEqualTo(
                        """
                        connector.name=iceberg
                        iceberg.catalog.type=rest
                        iceberg.rest-catalog.uri=http://127.0.0.1:8181
                        iceberg.rest-catalog.warehouse=s3://warehouse/
                        iceberg.rest-catalog.view-endpoints-enabled=true
                        fs.native-s3.enabled=true
                        s3.endpoint=http://127.0.0.1:9000
                        s3.path-style-access=true
                        s3.region=us-east-1
                        s3.aws-access-key=fleet
                        s3.aws-secret-key=fleet-secret
                        """);
    }

    @Test
    void aCatalogCredentialMakesTrinoAuthenticateWithOAuth2ClientCredentials() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.put("trino.catalog-credential", "fleet-reader:reader-secret");

        TrinoEtc etc = TrinoEtc.generate(config(values), "127.0.0.1", 18080);

        assertThat(etc.files().get("catalog/iceberg.properties"))
                .contains(
                        "iceberg.rest-catalog.security=OAUTH2\n",
                        "iceberg.rest-catalog.oauth2.credential=fleet-reader:reader-secret\n",
                        "iceberg.rest-catalog.oauth2.server-uri=http://127.0.0.1:8181/v1/oauth/tokens\n",
                        "iceberg.rest-catalog.oauth2.scope=catalog\n",
                        "iceberg.rest-catalog.oauth2.token-refresh-enabled=true\n");
        assertThat(TrinoConfig.from(ConfigSource.of(values)).toString())
                .doesNotContain("reader-secret")
                .contains("catalogCredential=fleet-reader");
    }

    @Test
    void withoutKeysTheCatalogUsesTheDefaultCredentialChain() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.remove("trino.s3-access-key");
        values.remove("trino.s3-secret-key");

        TrinoEtc etc = TrinoEtc.generate(config(values), "127.0.0.1", 18080);

        assertThat(etc.files().get("catalog/iceberg.properties")).doesNotContain("s3.aws-");
    }

    @Test
    void jvmConfigHasTheHeapAndTrinoOptions() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.put("trino.max-heap", "768M");

        TrinoEtc etc = TrinoEtc.generate(config(values), "127.0.0.1", 18080);

        List<String> expected = List.of(
                "-server",
                "-Xmx768M",
                "-XX:+UseG1GC",
                "-XX:+ExplicitGCInvokesConcurrent",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:-OmitStackTraceInFastThrow",
                "-XX:ReservedCodeCacheSize=256M",
                "-XX:PerMethodRecompilationCutoff=10000",
                "-XX:PerBytecodeRecompilationCutoff=10000",
                "-XX:+UnlockDiagnosticVMOptions",
                "-XX:G1NumCollectionsKeepPinned=10000000",
                "-XX:+EnableDynamicAgentLoading",
                "-Djdk.attach.allowAttachSelf=true",
                "-Djdk.nio.maxCachedBufferSize=2000000",
                "-Dfile.encoding=UTF-8",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow");
        assertThat(etc.jvmOptions()).isEqualTo(expected);
        assertThat(etc.files().get("jvm.config")).isEqualTo(String.join("\n", expected) + "\n");
    }

    @Test
    void logLevels() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);

        assertThat(etc.files().get("log.properties")).isEqualTo("io.trino=INFO\n");
    }

    @Test
    void generatesExactlyTheFilesTrinoReads() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);

        assertThat(etc.files().keySet())
                .containsExactly(
                        "config.properties",
                        "node.properties",
                        "jvm.config",
                        "log.properties",
                        "catalog/iceberg.properties");
    }

    @Test
    void ipv6AddressIsBracketedInTheDiscoveryUri() {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "::1", 18080);

        assertThat(etc.files().get("config.properties")).contains("discovery.uri=http://[::1]:18080\n");
    }

    @Test
    void valuesSurviveAPropertiesRoundTrip() throws IOException {
        Map<String, String> values = new HashMap<>(VALUES);
        String awkwardSecret = " a\\b=c:d#e!f\tg\u00e9\u20ac";
        values.put("trino.s3-secret-key", awkwardSecret);

        TrinoEtc etc = TrinoEtc.generate(config(values), "127.0.0.1", 18080);
        Properties properties = new Properties();
        properties.load(new StringReader(etc.files().get("catalog/iceberg.properties")));

        assertThat(properties.getProperty("s3.aws-secret-key")).isEqualTo(awkwardSecret);
        assertThat(etc.files().get("catalog/iceberg.properties")).matches("\\p{ASCII}*");
    }

    @Test
    void portMustBeResolved() {
        assertThatThrownBy(() -> TrinoEtc.generate(config(VALUES), "127.0.0.1", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("httpPort");
    }

    @Test
    void writesEveryFileAndKeepsTheCatalogPrivate() throws IOException {
        TrinoEtc etc = TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080);
        Path etcDirectory = directory.resolve("etc");

        etc.writeTo(etcDirectory);
        etc.writeTo(etcDirectory);

        for (Map.Entry<String, String> file : etc.files().entrySet()) {
            assertThat(etcDirectory.resolve(file.getKey())).hasContent(file.getValue());
        }
        Path catalog = etcDirectory.resolve("catalog/iceberg.properties");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(catalog)))
                .isEqualTo("rw-------");
        Properties loadedAsTrinoDoes = new Properties();
        try (InputStream input = Files.newInputStream(catalog)) {
            loadedAsTrinoDoes.load(input);
        }
        assertThat(loadedAsTrinoDoes.getProperty("s3.aws-secret-key")).isEqualTo("fleet-secret");
    }

    private static TrinoConfig config(Map<String, String> values) {
        return TrinoConfig.from(ConfigSource.of(values));
    }
}

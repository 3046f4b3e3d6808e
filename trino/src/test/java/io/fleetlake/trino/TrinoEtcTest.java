package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.trino.TrinoUser;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
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

    private static final String KEYSTORE = "-----BEGIN PRIVATE KEY-----\n(key)\n-----END PRIVATE KEY-----\n";
    private static final SecureRandom RANDOM = new SecureRandom();

    @TempDir
    Path directory;

    @Test
    void configProperties() {
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

        assertThat(etc.files().get("config.properties"))
                .isEqualTo(
                        """
                        coordinator=true
                        node-scheduler.include-coordinator=true
                        http-server.http.port=18080
                        discovery.uri=http://127.0.0.1:18080
                        http-server.https.enabled=true
                        http-server.https.port=18443
                        http-server.https.keystore.path=/var/fleet/trino/etc/tls/keystore.pem
                        http-server.authentication.type=PASSWORD
                        http-server.authentication.allow-insecure-over-http=false
                        internal-communication.shared-secret=test-shared-secret-0123456789abcdef
                        password-authenticator.config-files=/var/fleet/trino/etc/password-authenticator.properties
                        access-control.config-files=/var/fleet/trino/etc/access-control.properties
                        plugin.dir=/opt/fleet/trino-server/plugin
                        catalog.config-dir=/var/fleet/trino/etc/catalog
                        http-server.log.path=/var/fleet/trino/var/log/http-request.log
                        """);
    }

    @Test
    void nodePropertiesBindTheConfiguredAddress() {
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

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
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

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

        TrinoEtc etc = generate(config(values), "127.0.0.1");

        assertThat(etc.files().get("catalog/iceberg.properties"))
                .contains(
                        "iceberg.rest-catalog.security=OAUTH2\n",
                        "iceberg.rest-catalog.oauth2.credential=fleet-reader:reader-secret\n",
                        "iceberg.rest-catalog.oauth2.server-uri=http://127.0.0.1:8181/v1/oauth/tokens\n",
                        "iceberg.rest-catalog.oauth2.scope=catalog\n",
                        "iceberg.rest-catalog.oauth2.token-refresh-enabled=true\n");
        assertThat(config(values).toString())
                .doesNotContain("reader-secret")
                .contains("catalogCredential=fleet-reader");
    }

    @Test
    void withoutKeysTheCatalogUsesTheDefaultCredentialChain() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.remove("trino.s3-access-key");
        values.remove("trino.s3-secret-key");

        TrinoEtc etc = generate(config(values), "127.0.0.1");

        assertThat(etc.files().get("catalog/iceberg.properties")).doesNotContain("s3.aws-");
    }

    @Test
    void jvmConfigHasTheHeapAndTrinoOptions() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.put("trino.max-heap", "768M");

        TrinoEtc etc = generate(config(values), "127.0.0.1");

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
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

        assertThat(etc.files().get("log.properties")).isEqualTo("io.trino=INFO\n");
    }

    @Test
    void generatesExactlyTheFilesTrinoReads() {
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

        assertThat(etc.files().keySet())
                .containsExactly(
                        "config.properties",
                        "node.properties",
                        "jvm.config",
                        "log.properties",
                        "password-authenticator.properties",
                        "password.db",
                        "access-control.properties",
                        "rules.json",
                        "tls/keystore.pem",
                        "catalog/iceberg.properties");
    }

    @Test
    void ipv6AddressIsBracketedInTheDiscoveryUri() {
        TrinoEtc etc = generate(config(VALUES), "::1");

        assertThat(etc.files().get("config.properties")).contains("discovery.uri=http://[::1]:18080\n");
    }

    @Test
    void valuesSurviveAPropertiesRoundTrip() throws IOException {
        Map<String, String> values = new HashMap<>(VALUES);
        String awkwardSecret = " a\\b=c:d#e!f\tg\u00e9\u20ac";
        values.put("trino.s3-secret-key", awkwardSecret);

        TrinoEtc etc = generate(config(values), "127.0.0.1");
        Properties properties = new Properties();
        properties.load(new StringReader(etc.files().get("catalog/iceberg.properties")));

        assertThat(properties.getProperty("s3.aws-secret-key")).isEqualTo(awkwardSecret);
        assertThat(etc.files().get("catalog/iceberg.properties")).matches("\\p{ASCII}*");
    }

    @Test
    void portMustBeResolved() {
        assertThatThrownBy(() -> TrinoEtc.generate(config(VALUES), "127.0.0.1", 0, 18443, KEYSTORE, RANDOM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("httpPort");
        assertThatThrownBy(() -> TrinoEtc.generate(config(VALUES), "127.0.0.1", 18080, 0, KEYSTORE, RANDOM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("httpsPort");
    }

    @Test
    void writesEveryFileAndKeepsTheCatalogPrivate() throws IOException {
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");
        Path etcDirectory = directory.resolve("etc");

        etc.writeTo(etcDirectory);
        etc.writeTo(etcDirectory);

        for (Map.Entry<String, String> file : etc.files().entrySet()) {
            assertThat(etcDirectory.resolve(file.getKey())).hasContent(file.getValue());
        }
        Path catalog = etcDirectory.resolve("catalog/iceberg.properties");
        for (String secretFile :
                List.of("config.properties", "password.db", "tls/keystore.pem", "catalog/iceberg.properties")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(etcDirectory.resolve(secretFile))))
                    .as(secretFile)
                    .isEqualTo("rw-------");
        }
        Properties loadedAsTrinoDoes = new Properties();
        try (InputStream input = Files.newInputStream(catalog)) {
            loadedAsTrinoDoes.load(input);
        }
        assertThat(loadedAsTrinoDoes.getProperty("s3.aws-secret-key")).isEqualTo("fleet-secret");
    }

    private static TrinoEtc generate(TrinoConfig config, String bindAddress) {
        return TrinoEtc.generate(config, bindAddress, 18080, 18443, KEYSTORE, RANDOM);
    }

    private static TrinoConfig config(Map<String, String> values) {
        return TrinoConfig.from(ConfigSource.of(SecurityValues.with(values)));
    }

    @Test
    void passwordFileHoldsAVerifiableHashForEveryUserAndNoPassword() {
        String file = generate(config(VALUES), "127.0.0.1").files().get("password.db");

        List<String> lines = file.lines().toList();
        assertThat(lines)
                .extracting(line -> line.substring(0, line.indexOf(':')))
                .containsExactly("admin", "analyst", "fleet-dashboard", "fleet-monitor");
        for (TrinoUser user : TrinoUser.values()) {
            String entry = lines.stream()
                    .filter(line -> line.startsWith(user.userName() + ":"))
                    .findFirst()
                    .orElseThrow()
                    .substring(user.userName().length() + 1);
            assertThat(entry).matches("10000:[0-9a-f]{32}:[0-9a-f]{64}");
            assertThat(TrinoPasswordFile.matches(SecurityValues.password(user), entry))
                    .isTrue();
            assertThat(TrinoPasswordFile.matches(SecurityValues.password(user) + "x", entry))
                    .isFalse();
            assertThat(file).doesNotContain(SecurityValues.password(user));
        }
    }

    @Test
    void passwordHashesMatchAnIndependentPbkdf2Sha1Vector() {
        // RFC 6070, test vector 2 (PBKDF2-HMAC-SHA1, "password", "salt", 2 iterations, 20 bytes): the algorithm Trino's
        // file authenticator checks with.
        assertThat(TrinoPasswordFile.matches("password", "2:73616c74:ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"))
                .isTrue();
    }

    @Test
    void authenticationAndAccessControlPointToTheirFiles() {
        TrinoEtc etc = generate(config(VALUES), "127.0.0.1");

        assertThat(etc.files().get("password-authenticator.properties"))
                .isEqualTo(
                        """
                        password-authenticator.name=file
                        file.password-file=/var/fleet/trino/etc/password.db
                        """);
        assertThat(etc.files().get("access-control.properties"))
                .isEqualTo(
                        """
                        access-control.name=file
                        security.config-file=/var/fleet/trino/etc/rules.json
                        """);
        assertThat(etc.files().get("tls/keystore.pem")).isEqualTo(KEYSTORE);
    }

    @Test
    void rulesGiveAdminEverythingAndTheOthersReadOnlyIceberg() throws IOException {
        JsonNode rules = new ObjectMapper()
                .readTree(generate(config(VALUES), "127.0.0.1").files().get("rules.json"));

        JsonNode catalogs = rules.get("catalogs");
        assertThat(catalogs.get(0).get("user").asText()).isEqualTo("admin");
        assertThat(catalogs.get(0).get("allow").asText()).isEqualTo("all");
        assertThat(catalogs.get(1).get("user").asText()).isEqualTo("analyst|fleet-dashboard|fleet-monitor");
        assertThat(catalogs.get(1).get("catalog").asText()).isEqualTo("iceberg|system");
        assertThat(catalogs.get(1).get("allow").asText()).isEqualTo("read-only");
        assertThat(catalogs.get(2).get("allow").asText())
                .as("anyone else, and iceberg_admin")
                .isEqualTo("none");
    }

    @Test
    void composeUsesTheSameRules() throws IOException {
        Path composeRules = Path.of(System.getProperty("user.dir")).resolveSibling("deploy/trino/rules.json");

        assertThat(composeRules).hasContent(TrinoEtc.accessRules());
    }

    @Test
    void anAdminCatalogCredentialAddsTheIcebergAdminCatalog() {
        Map<String, String> values = new HashMap<>(VALUES);
        values.put("trino.catalog-credential", "fleet-reader:reader-secret");
        values.put("trino.admin-catalog-credential", "fleet-maintainer:maintainer-secret");

        TrinoEtc etc = generate(config(values), "127.0.0.1");

        assertThat(etc.files().get("catalog/iceberg.properties"))
                .contains("iceberg.rest-catalog.oauth2.credential=fleet-reader:reader-secret\n")
                .as("table procedures are writes that file-based access control does not stop")
                .contains("iceberg.security=read_only\n")
                .doesNotContain("maintainer-secret");
        assertThat(etc.files().get("catalog/iceberg_admin.properties"))
                .contains("iceberg.rest-catalog.oauth2.credential=fleet-maintainer:maintainer-secret\n")
                .doesNotContain("iceberg.security");
        assertThat(config(values).toString()).doesNotContain("maintainer-secret", "reader-secret", "password-of-");
        assertThat(etc.toString()).doesNotContain("secret-0123", "reader-secret");
    }
}

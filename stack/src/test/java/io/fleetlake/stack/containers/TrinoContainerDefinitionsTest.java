package io.fleetlake.stack.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.images.builder.Transferable;

/** The Trino container's definitions against what compose's trino service runs with (the checkout's files). */
class TrinoContainerDefinitionsTest {
    private static final Path CHECKOUT = Path.of("..");
    private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{ENV:([A-Z0-9_]+)}");

    @TempDir
    Path data;

    @Test
    void theEnvironmentHoldsEveryPasswordStartShAndTheConfigurationRead() throws IOException {
        StackSettings settings = settings();
        StackCatalogIdentity.of(settings).ensure();

        Map<String, String> environment = TrinoContainerDefinitions.environment(settings, "keystore-secret");

        String renderer = Files.readString(CHECKOUT.resolve("deploy/trino/RenderPasswordFile.java"));
        for (TrinoUser user : TrinoUser.values()) {
            String variable = TrinoContainerDefinitions.passwordVariable(user);
            assertThat(renderer).contains("users.put(\"" + user.userName() + "\", \"" + variable + "\");");
            assertThat(environment)
                    .containsEntry(variable, settings.trinoSecrets().password(user));
        }
        assertThat(environment)
                .containsEntry("TRINO_KEYSTORE_PASSWORD", "keystore-secret")
                .containsEntry("TRINO_SHARED_SECRET", settings.trinoSecrets().sharedSecret())
                .containsKeys(composeEnvironment().toArray(String[]::new))
                .containsKeys(referencedVariables(settings).toArray(String[]::new));
        assertThat(environment.values())
                .allSatisfy(value -> assertThat(value).isNotBlank().doesNotContainIgnoringCase("change-me"));
        assertThat(Set.copyOf(environment.values()))
                .as("every password and secret its own")
                .hasSize(environment.size());
    }

    @Test
    void theCatalogsAreTheEmbeddedStacksWithTheReaderOnIcebergAndTheMaintainerOnIcebergAdmin() throws IOException {
        StackSettings settings = settings();
        StackCatalogIdentity identity = StackCatalogIdentity.of(settings).ensure();

        Map<String, Map<String, String>> catalogs = TrinoContainerDefinitions.catalogs(settings);
        Map<String, String> environment = TrinoContainerDefinitions.environment(settings, "keystore-secret");

        assertThat(catalogs)
                .containsOnlyKeys(
                        "/etc/trino/catalog/iceberg.properties", "/etc/trino/catalog/iceberg_admin.properties");
        Map<String, String> iceberg = catalogs.get("/etc/trino/catalog/iceberg.properties");
        Map<String, String> admin = catalogs.get("/etc/trino/catalog/iceberg_admin.properties");
        assertThat(iceberg)
                .containsEntry("iceberg.security", "read_only")
                .containsEntry("iceberg.rest-catalog.uri", "http://host.testcontainers.internal:28181")
                .containsEntry(
                        "iceberg.rest-catalog.oauth2.server-uri",
                        "http://host.testcontainers.internal:28181/v1/oauth/tokens")
                .containsEntry("s3.endpoint", "http://minio:9000")
                .containsEntry("s3.region", "eu-west-1");
        assertThat(iceberg.keySet())
                .as("the keys of compose's iceberg catalog")
                .containsExactlyInAnyOrderElementsOf(
                        load(CHECKOUT.resolve("deploy/trino/etc/catalog/iceberg.properties"))
                                .stringPropertyNames());
        assertThat(admin).doesNotContainKey("iceberg.security");
        assertThat(environment.get(variable(iceberg.get("iceberg.rest-catalog.oauth2.credential"))))
                .isEqualTo(identity.credential(CatalogRole.READER).value());
        assertThat(environment.get(variable(admin.get("iceberg.rest-catalog.oauth2.credential"))))
                .isEqualTo(identity.credential(CatalogRole.MAINTAINER).value());
        assertThat(environment.get(variable(admin.get("s3.aws-secret-key")))).isEqualTo("secret\\key");
        String rendered =
                catalogs.values().stream().map(ContainerDefinitions::render).reduce("", String::concat);
        assertThat(rendered).doesNotContain("secret\\key", "secret\\\\key");
        for (String secret : environment.values()) {
            assertThat(rendered).doesNotContain(secret);
        }
    }

    @Test
    void withoutTheStacksCatalogClientsTrinoHasOneCatalogWithoutCredential() {
        Map<String, Map<String, String>> catalogs = TrinoContainerDefinitions.catalogs(settings());

        assertThat(catalogs).containsOnlyKeys("/etc/trino/catalog/iceberg.properties");
        assertThat(catalogs.get("/etc/trino/catalog/iceberg.properties"))
                .doesNotContainKeys(
                        "iceberg.security", "iceberg.rest-catalog.security", "iceberg.rest-catalog.oauth2.credential");
        assertThat(TrinoContainerDefinitions.environment(settings(), "keystore-secret"))
                .doesNotContainKeys("CATALOG_CREDENTIAL", "CATALOG_ADMIN_CREDENTIAL");
    }

    @Test
    void theContainerGetsTheFilesComposeMountsAtTheSamePaths() throws IOException {
        Map<String, String> mounts = composeTrinoMounts();

        Map<String, String> expected = new LinkedHashMap<>(TrinoContainerDefinitions.DEPLOYMENT_FILES);
        // The catalog folder is this provider's own (TrinoContainerDefinitions.catalogs), at the same place.
        expected.put("deploy/trino/etc/catalog", TrinoContainerDefinitions.CATALOG_DIRECTORY);
        assertThat(mounts).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(TrinoContainerDefinitions.ENTRYPOINT).containsExactlyElementsOf(composeEntrypoint());

        Map<String, Transferable> files = TrinoContainerDefinitions.deploymentFiles(CHECKOUT);
        assertThat(files).containsOnlyKeys(TrinoContainerDefinitions.DEPLOYMENT_FILES.values());
        TrinoContainerDefinitions.DEPLOYMENT_FILES.forEach((checkoutPath, containerPath) -> {
            try {
                assertThat(files.get(containerPath).getBytes())
                        .isEqualTo(Files.readAllBytes(CHECKOUT.resolve(checkoutPath)));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertThatThrownBy(() -> TrinoContainerDefinitions.deploymentFiles(data))
                .hasMessageContaining("deploy/trino/etc/config.properties")
                .hasMessageContaining("FLEET_HOME");
    }

    @Test
    void theKeyStoreHoldsACertificateOfTheDataFoldersTrinoCaForTheStacksHost() throws Exception {
        StackSettings settings = settings();
        char[] password = "keystore-secret".toCharArray();

        byte[] bytes = TrinoContainerDefinitions.keyStore(settings, password);

        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(new ByteArrayInputStream(bytes), password);
        List<String> aliases = Collections.list(store.aliases());
        assertThat(aliases).hasSize(1);
        assertThat(store.isKeyEntry(aliases.get(0))).isTrue();
        assertThat(store.getKey(aliases.get(0), password)).isNotNull();
        Certificate[] chain = store.getCertificateChain(aliases.get(0));
        X509Certificate server = (X509Certificate) chain[0];
        List<String> names = new ArrayList<>();
        server.getSubjectAlternativeNames()
                .forEach(name -> names.add(name.get(1).toString()));
        assertThat(names).contains(settings.host(), "localhost");
        // The clients trust the data folder's CA certificate (StackSettings#trino): it signed this one.
        X509Certificate authority = LocalCertificateAuthority.readCertificates(
                        settings.trinoSecrets().caCertificate())
                .get(0);
        server.verify(authority.getPublicKey());
        server.checkValidity();
        assertThatThrownBy(() ->
                        KeyStore.getInstance("PKCS12").load(new ByteArrayInputStream(bytes), "wrong".toCharArray()))
                .isInstanceOf(IOException.class);

        Map<String, Transferable> generated = TrinoContainerDefinitions.generatedFiles(settings, password);
        assertThat(generated)
                .containsKeys(
                        "/data/trino/tls/keystore.p12",
                        "/data/trino/tls/ca.pem",
                        "/etc/trino/catalog/iceberg.properties");
        assertThat(generated.get("/data/trino/tls/ca.pem").getBytes())
                .isEqualTo(Files.readAllBytes(settings.trinoSecrets().caCertificate()));
        KeyStore copied = KeyStore.getInstance("PKCS12");
        copied.load(
                new ByteArrayInputStream(
                        generated.get("/data/trino/tls/keystore.p12").getBytes()),
                password);
        assertThat(copied.getCertificate(Collections.list(copied.aliases()).get(0)))
                .as("the same certificate while it stays valid")
                .isEqualTo(server);
    }

    private StackSettings settings() {
        return StackSettings.from(
                ConfigSource.of(Map.of(
                        StackSettings.DATA_DIRECTORY,
                        data.toString(),
                        "catalog.port",
                        "28181",
                        "s3.access-key",
                        "fleet-it",
                        "s3.secret-key",
                        "secret\\key",
                        "s3.region",
                        "eu-west-1")),
                data);
    }

    /** The names of compose's trino environment (docker-compose.yml). */
    private static List<String> composeEnvironment() throws IOException {
        List<String> names = new ArrayList<>();
        boolean inEnvironment = false;
        for (String line : trinoService()) {
            if (line.equals("    environment:")) {
                inEnvironment = true;
            } else if (inEnvironment && line.matches(" {6}[A-Z0-9_]+:.*")) {
                names.add(line.trim().substring(0, line.trim().indexOf(':')));
            } else if (inEnvironment && line.matches(" {4}[a-z_]+:.*")) {
                inEnvironment = false;
            }
        }
        assertThat(names).as("compose's trino environment").isNotEmpty();
        return names;
    }

    /** Compose's trino volumes from the checkout: checkout path to container path. */
    private static Map<String, String> composeTrinoMounts() throws IOException {
        Map<String, String> mounts = new LinkedHashMap<>();
        Pattern mount = Pattern.compile(" {6}- \\./(deploy/trino/[^:]+):([^:]+):ro");
        for (String line : trinoService()) {
            Matcher matcher = mount.matcher(line);
            if (matcher.matches()) {
                mounts.put(matcher.group(1), matcher.group(2));
            }
        }
        assertThat(mounts).as("compose's trino mounts").isNotEmpty();
        return mounts;
    }

    private static List<String> composeEntrypoint() throws IOException {
        String entrypoint = trinoService().stream()
                .filter(line -> line.startsWith("    entrypoint: "))
                .findFirst()
                .orElseThrow();
        List<String> parts = new ArrayList<>();
        Matcher matcher = Pattern.compile("\"([^\"]*)\"").matcher(entrypoint);
        while (matcher.find()) {
            parts.add(matcher.group(1));
        }
        return parts;
    }

    private static List<String> trinoService() throws IOException {
        List<String> lines = Files.readAllLines(CHECKOUT.resolve("docker-compose.yml"));
        int start = lines.indexOf("  trino:");
        assertThat(start).as("compose's trino service").isNotNegative();
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).matches(" {2}[a-z].*:")) {
            end++;
        }
        return lines.subList(start, end);
    }

    /** Every ${ENV:NAME} that the copied configuration and the generated catalogs read. */
    private static Set<String> referencedVariables(StackSettings settings) throws IOException {
        Set<String> names = new TreeSet<>();
        for (String checkoutPath : TrinoContainerDefinitions.DEPLOYMENT_FILES.keySet()) {
            if (checkoutPath.endsWith(".properties")) {
                // Comments mention ${ENV:NAME} as an example.
                collect(
                        Files.readAllLines(CHECKOUT.resolve(checkoutPath)).stream()
                                .filter(line -> !line.startsWith("#"))
                                .collect(Collectors.joining("\n")),
                        names);
            }
        }
        TrinoContainerDefinitions.catalogs(settings)
                .values()
                .forEach(properties -> collect(ContainerDefinitions.render(properties), names));
        assertThat(names).contains("TRINO_KEYSTORE_PASSWORD", "TRINO_SHARED_SECRET", "CATALOG_CREDENTIAL");
        return names;
    }

    private static void collect(String text, Set<String> names) {
        Matcher matcher = ENV_REFERENCE.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
    }

    private static String variable(String reference) {
        Matcher matcher = ENV_REFERENCE.matcher(reference);
        assertThat(matcher.matches()).as(reference).isTrue();
        return matcher.group(1);
    }

    private static Properties load(Path file) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(Files.readString(file)));
        return properties;
    }
}

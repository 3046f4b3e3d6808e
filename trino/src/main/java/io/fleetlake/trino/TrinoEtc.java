package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.model.catalog.CatalogAuthentication;
import io.fleetlake.model.catalog.CatalogCredential;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code etc/} folder of a single-node Trino: a coordinator that also runs tasks, bound to one address, with the
 * Iceberg catalog {@value #ICEBERG_CATALOG} on the REST catalog and native S3 (and {@value #ICEBERG_ADMIN_CATALOG}
 * with a maintainer's catalog credential, for {@code admin} only), HTTPS with password authentication ({@value
 * #PASSWORD_FILE}) and file-based access control ({@value #RULES_FILE}). {@link #generate} is a pure function of its arguments; {@link
 * #writeTo} puts the files on disk.
 *
 * @param files file name relative to {@code etc/} mapped to its content, in a stable order
 * @param jvmOptions the options of {@code jvm.config}, one per element
 * @param nodeProperties the properties of {@code node.properties}, which the server receives as system properties
 */
public record TrinoEtc(Map<String, String> files, List<String> jvmOptions, Map<String, String> nodeProperties) {
    public static final String CONFIG_PROPERTIES = "config.properties";
    public static final String NODE_PROPERTIES = "node.properties";
    public static final String JVM_CONFIG = "jvm.config";
    public static final String LOG_PROPERTIES = "log.properties";
    public static final String CATALOG_FOLDER = "catalog";
    public static final String ICEBERG_CATALOG = "iceberg";
    public static final String ICEBERG_PROPERTIES = CATALOG_FOLDER + "/" + ICEBERG_CATALOG + ".properties";
    /** The catalog admin writes through, with the maintainer's catalog credential; the others may not use it. */
    public static final String ICEBERG_ADMIN_CATALOG = "iceberg_admin";

    public static final String ICEBERG_ADMIN_PROPERTIES = CATALOG_FOLDER + "/" + ICEBERG_ADMIN_CATALOG + ".properties";
    public static final String PASSWORD_AUTHENTICATOR_PROPERTIES = "password-authenticator.properties";
    public static final String PASSWORD_FILE = "password.db";
    public static final String ACCESS_CONTROL_PROPERTIES = "access-control.properties";
    public static final String RULES_FILE = "rules.json";
    /** The server's certificate chain and key in one PEM file, as airlift reads a PEM key store. */
    public static final String KEYSTORE_FILE = "tls/keystore.pem";

    // Files holding a secret (keys, the shared secret, password hashes): owner-only.
    private static final Set<String> SECRET_FILES =
            Set.of(CONFIG_PROPERTIES, PASSWORD_FILE, ICEBERG_PROPERTIES, ICEBERG_ADMIN_PROPERTIES, KEYSTORE_FILE);

    public TrinoEtc {
        files = copyInOrder(requireNonNull(files, "files is null"));
        jvmOptions = List.copyOf(requireNonNull(jvmOptions, "jvmOptions is null"));
        nodeProperties = copyInOrder(requireNonNull(nodeProperties, "nodeProperties is null"));
    }

    /**
     * The configuration for a server bound to {@code bindAddress}, with Trino's internal HTTP port {@code httpPort}
     * and the clients' HTTPS port {@code httpsPort}.
     *
     * @param bindAddress an IP address literal; Trino binds and advertises it
     * @param httpPort the resolved HTTP port (never 0)
     * @param httpsPort the resolved HTTPS port (never 0)
     * @param keystore the server's certificate chain and private key in one PEM text, written to {@value
     *     #KEYSTORE_FILE}
     * @param random salts the password hashes
     */
    public static TrinoEtc generate(
            TrinoConfig config, String bindAddress, int httpPort, int httpsPort, String keystore, SecureRandom random) {
        requireNonNull(config, "config is null");
        requireNonNull(bindAddress, "bindAddress is null");
        requireNonNull(keystore, "keystore is null");
        requireNonNull(random, "random is null");
        requirePort("httpPort", httpPort);
        requirePort("httpsPort", httpsPort);
        List<String> jvmOptions = jvmOptions(config);
        Map<String, String> nodeProperties = nodeProperties(config, bindAddress);

        Map<String, String> files = new LinkedHashMap<>();
        files.put(
                CONFIG_PROPERTIES, PropertiesFormat.render(serverProperties(config, bindAddress, httpPort, httpsPort)));
        files.put(NODE_PROPERTIES, PropertiesFormat.render(nodeProperties));
        files.put(JVM_CONFIG, String.join("\n", jvmOptions) + "\n");
        files.put(LOG_PROPERTIES, PropertiesFormat.render(Map.of("io.trino", "INFO")));
        files.put(PASSWORD_AUTHENTICATOR_PROPERTIES, PropertiesFormat.render(passwordAuthenticatorProperties(config)));
        files.put(PASSWORD_FILE, TrinoPasswordFile.render(config.security().passwords(), random));
        files.put(ACCESS_CONTROL_PROPERTIES, PropertiesFormat.render(accessControlProperties(config)));
        files.put(RULES_FILE, accessRules());
        files.put(KEYSTORE_FILE, keystore);
        Map<String, String> iceberg = icebergCatalogProperties(config, config.catalogCredential());
        if (config.security().adminCatalogCredential().isPresent()) {
            // Writes go through iceberg_admin; the connector refuses every write here, table procedures (optimize,
            // expire_snapshots) included, which Trino's file-based access control lets through for any user.
            iceberg.put("iceberg.security", "read_only");
        }
        files.put(ICEBERG_PROPERTIES, PropertiesFormat.render(iceberg));
        config.security()
                .adminCatalogCredential()
                .ifPresent(credential -> files.put(
                        ICEBERG_ADMIN_PROPERTIES,
                        PropertiesFormat.render(icebergCatalogProperties(config, Optional.of(credential)))));
        return new TrinoEtc(files, jvmOptions, nodeProperties);
    }

    /**
     * The file-based access control rules: {@code admin} may do everything, the other users of {@link
     * io.fleetlake.model.trino.TrinoUser} may only read the {@code iceberg} and {@code system} catalogs. The same
     * rules are {@code deploy/trino/rules.json} for compose.
     */
    public static String accessRules() {
        try (InputStream rules = TrinoEtc.class.getResourceAsStream(RULES_FILE)) {
            if (rules == null) {
                throw new IllegalStateException(RULES_FILE + " is missing from the trino module's resources");
            }
            return new String(rules.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the Trino access rules", e);
        }
    }

    private static void requirePort(String name, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(name + " must be between 1 and 65535, was " + port);
        }
    }

    private static List<String> jvmOptions(TrinoConfig config) {
        // Trino's recommended options (core/docker/default/etc/jvm.config), sized for a small shared machine: no
        // initial heap (the heap grows only as queries need it), half the usual code cache, no heap dumps.
        return List.of(
                "-server",
                "-Xmx" + config.maxHeap(),
                "-XX:+UseG1GC",
                "-XX:+ExplicitGCInvokesConcurrent",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:-OmitStackTraceInFastThrow",
                "-XX:ReservedCodeCacheSize=256M",
                "-XX:PerMethodRecompilationCutoff=10000",
                "-XX:PerBytecodeRecompilationCutoff=10000",
                "-XX:+UnlockDiagnosticVMOptions",
                // https://bugs.openjdk.org/browse/JDK-8329528
                "-XX:G1NumCollectionsKeepPinned=10000000",
                // Trino measures object sizes with JOL, which attaches an agent to its own JVM.
                "-XX:+EnableDynamicAgentLoading",
                "-Djdk.attach.allowAttachSelf=true",
                "-Djdk.nio.maxCachedBufferSize=2000000",
                "-Dfile.encoding=UTF-8",
                // JNA and JOL use native access and sun.misc.Unsafe; without these Java 24+ prints warnings.
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow");
    }

    private static Map<String, String> nodeProperties(TrinoConfig config, String bindAddress) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("node.environment", config.environment());
        // One node per environment: a stable id keeps the same identity across restarts.
        properties.put("node.id", config.environment() + "-coordinator");
        properties.put("node.data-dir", config.dataDirectory().toString());
        // airlift binds every HTTP connector to node.bind-ip (default 0.0.0.0) and advertises node.internal-address.
        properties.put("node.bind-ip", bindAddress);
        properties.put("node.internal-address", bindAddress);
        return properties;
    }

    private static Map<String, String> serverProperties(
            TrinoConfig config, String bindAddress, int httpPort, int httpsPort) {
        Path etcDirectory = etcDirectory(config);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("coordinator", "true");
        properties.put("node-scheduler.include-coordinator", "true");
        // The HTTP port carries Trino's internal requests (signed with the shared secret) and GET /v1/info; Trino
        // answers every client request on it with 403 "Authentication over HTTP is not enabled".
        properties.put("http-server.http.port", Integer.toString(httpPort));
        properties.put("discovery.uri", httpUri(bindAddress, httpPort).toString());
        properties.put("http-server.https.enabled", "true");
        properties.put("http-server.https.port", Integer.toString(httpsPort));
        properties.put(
                "http-server.https.keystore.path",
                etcDirectory.resolve(KEYSTORE_FILE).toString());
        properties.put("http-server.authentication.type", "PASSWORD");
        // Stated although it is the default: a password must never travel over plain HTTP.
        properties.put("http-server.authentication.allow-insecure-over-http", "false");
        properties.put("internal-communication.shared-secret", config.security().sharedSecret());
        properties.put(
                "password-authenticator.config-files",
                etcDirectory.resolve(PASSWORD_AUTHENTICATOR_PROPERTIES).toString());
        properties.put(
                "access-control.config-files",
                etcDirectory.resolve(ACCESS_CONTROL_PROPERTIES).toString());
        // Defaults below are relative to the working directory; the server folder stays read-only.
        properties.put("plugin.dir", config.serverDirectory().resolve("plugin").toString());
        properties.put(
                "catalog.config-dir",
                etcDirectory(config).resolve(CATALOG_FOLDER).toString());
        properties.put(
                "http-server.log.path",
                logDirectory(config).resolve("http-request.log").toString());
        return properties;
    }

    private static Map<String, String> passwordAuthenticatorProperties(TrinoConfig config) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("password-authenticator.name", "file");
        properties.put(
                "file.password-file",
                etcDirectory(config).resolve(PASSWORD_FILE).toString());
        return properties;
    }

    private static Map<String, String> accessControlProperties(TrinoConfig config) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("access-control.name", "file");
        properties.put(
                "security.config-file", etcDirectory(config).resolve(RULES_FILE).toString());
        return properties;
    }

    private static Map<String, String> icebergCatalogProperties(
            TrinoConfig config, Optional<CatalogCredential> catalogCredential) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("connector.name", "iceberg");
        properties.put("iceberg.catalog.type", "rest");
        properties.put("iceberg.rest-catalog.uri", config.catalogUri().toString());
        properties.put("iceberg.rest-catalog.warehouse", config.warehouse());
        // The fleet catalog serves Iceberg views (fleet.positions_with_places); Trino reads them through these
        // endpoints.
        properties.put("iceberg.rest-catalog.view-endpoints-enabled", "true");
        catalogCredential.ifPresent(credential -> {
            // Trino's REST catalog client fetches and refreshes its token as Iceberg's does.
            properties.put("iceberg.rest-catalog.security", "OAUTH2");
            properties.put("iceberg.rest-catalog.oauth2.credential", credential.value());
            properties.put(
                    "iceberg.rest-catalog.oauth2.server-uri",
                    CatalogAuthentication.tokenEndpoint(config.catalogUri().toString()));
            properties.put("iceberg.rest-catalog.oauth2.scope", CatalogAuthentication.SCOPE);
            properties.put("iceberg.rest-catalog.oauth2.token-refresh-enabled", "true");
        });
        properties.put("fs.native-s3.enabled", "true");
        properties.put("s3.endpoint", config.s3Endpoint().toString());
        properties.put("s3.path-style-access", "true");
        properties.put("s3.region", config.s3Region());
        config.s3AccessKey().ifPresent(accessKey -> properties.put("s3.aws-access-key", accessKey));
        config.s3SecretKey().ifPresent(secretKey -> properties.put("s3.aws-secret-key", secretKey));
        return properties;
    }

    /** Where the generated files go: {@code <data-dir>/etc}. */
    public static Path etcDirectory(TrinoConfig config) {
        return config.dataDirectory().resolve("etc");
    }

    /** Where the server log and the HTTP request log go: {@code <data-dir>/var/log}, as with Trino's launcher. */
    public static Path logDirectory(TrinoConfig config) {
        return config.dataDirectory().resolve("var").resolve("log");
    }

    static URI httpUri(String host, int port) {
        return uri("http", host, port);
    }

    static URI uri(String scheme, String host, int port) {
        try {
            // This constructor adds the brackets an IPv6 literal needs.
            return new URI(scheme, null, host, port, null, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "Cannot build an " + scheme + " URI for host " + host + " and port " + port, e);
        }
    }

    /**
     * Writes every file below {@code etcDirectory}, replacing earlier versions; the files holding a secret are
     * owner-only.
     */
    public void writeTo(Path etcDirectory) {
        requireNonNull(etcDirectory, "etcDirectory is null");
        try {
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = etcDirectory.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
                if (SECRET_FILES.contains(file.getKey()) && supportsPosixPermissions()) {
                    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Trino configuration to " + etcDirectory, e);
        }
    }

    /** The file names only: the contents hold secrets. */
    @Override
    public String toString() {
        return "TrinoEtc[files=" + files.keySet() + "]";
    }

    private static boolean supportsPosixPermissions() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    private static Map<String, String> copyInOrder(Map<String, String> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}

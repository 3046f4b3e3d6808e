package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogCredential;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Configuration of the local Trino server: where it listens, where its files live, which JDK runs it and how its
 * Iceberg catalog reaches the REST catalog and the object store. Built from a {@link ConfigSource} with
 * {@link #from(ConfigSource)}; every value is validated at construction.
 *
 * @param host address the HTTP server binds to and advertises; never a wildcard address
 * @param port HTTP port, or 0 to pick a free port at start
 * @param dataDirectory folder for the generated {@code etc/}, Trino's node data and the server log
 * @param serverDirectory the unpacked server ({@code lib/}, {@code plugin/iceberg/})
 * @param javaHome JDK that runs Trino; when empty, {@link JdkLocator} searches for one
 * @param maxHeap maximum heap of the Trino JVM in {@code -Xmx} notation, such as {@code 1G}
 * @param catalogUri base URI of the Iceberg REST catalog
 * @param warehouse warehouse the REST catalog is asked for
 * @param s3Endpoint endpoint of the S3-compatible object store
 * @param s3AccessKey access key of the object store; empty to use the AWS default credential chain
 * @param s3SecretKey secret key of the object store; present exactly when the access key is
 * @param s3Region region sent to the object store
 * @param environment Trino node environment name
 * @param startupTimeout how long {@link TrinoServer#start()} waits for the server to finish starting
 * @param catalogCredential Trino's OAuth2 client credentials for the REST catalog ({@value #CATALOG_CREDENTIAL}, a
 *     reader's); empty for a catalog without authentication
 * @param security HTTPS, the users' passwords and the internal shared secret ({@link TrinoSecurity})
 */
public record TrinoConfig(
        String host,
        int port,
        Path dataDirectory,
        Path serverDirectory,
        Optional<Path> javaHome,
        String maxHeap,
        URI catalogUri,
        String warehouse,
        URI s3Endpoint,
        Optional<String> s3AccessKey,
        Optional<String> s3SecretKey,
        String s3Region,
        String environment,
        Duration startupTimeout,
        Optional<CatalogCredential> catalogCredential,
        TrinoSecurity security) {
    public static final String HOST = "trino.host";
    public static final String PORT = "trino.port";
    public static final String DATA_DIRECTORY = "trino.data-dir";
    public static final String SERVER_DIRECTORY = "trino.server-dir";
    public static final String JAVA_HOME = "trino.java-home";
    public static final String MAX_HEAP = "trino.max-heap";
    public static final String CATALOG_URI = "trino.catalog-uri";
    public static final String CATALOG_CREDENTIAL = "trino.catalog-credential";
    public static final String WAREHOUSE = "trino.warehouse";
    public static final String S3_ENDPOINT = "trino.s3-endpoint";
    public static final String S3_ACCESS_KEY = "trino.s3-access-key";
    public static final String S3_SECRET_KEY = "trino.s3-secret-key";
    public static final String S3_REGION = "trino.s3-region";
    public static final String ENVIRONMENT = "trino.environment";
    public static final String STARTUP_TIMEOUT = "trino.startup-timeout";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8080;
    public static final String DEFAULT_MAX_HEAP = "1G";
    public static final String DEFAULT_WAREHOUSE = "s3://warehouse/";
    public static final String DEFAULT_S3_REGION = "us-east-1";
    public static final String DEFAULT_ENVIRONMENT = "fleet";
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private static final Pattern HEAP_SIZE = Pattern.compile("[1-9][0-9]*[kKmMgG]?");
    // Trino's own rule for node.environment (airlift NodeConfig).
    private static final Pattern ENVIRONMENT_NAME = Pattern.compile("[a-z0-9][_a-z0-9]*");
    private static final Set<String> WILDCARD_HOSTS = Set.of("0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0");
    private static final Set<String> HTTP_SCHEMES = Set.of("http", "https");

    public TrinoConfig {
        requireNonNull(host, "host is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        requireNonNull(serverDirectory, "serverDirectory is null");
        requireNonNull(javaHome, "javaHome is null");
        requireNonNull(maxHeap, "maxHeap is null");
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(warehouse, "warehouse is null");
        requireNonNull(s3Endpoint, "s3Endpoint is null");
        requireNonNull(s3AccessKey, "s3AccessKey is null");
        requireNonNull(s3SecretKey, "s3SecretKey is null");
        requireNonNull(s3Region, "s3Region is null");
        requireNonNull(environment, "environment is null");
        requireNonNull(startupTimeout, "startupTimeout is null");
        requireNonNull(catalogCredential, "catalogCredential is null");
        requireNonNull(security, "security is null");

        if (host.isBlank()) {
            throw new ConfigException(HOST + " is empty: set the address Trino binds to, for example 127.0.0.1");
        }
        if (WILDCARD_HOSTS.contains(host)) {
            throw new ConfigException(HOST + " = '" + host + "' would listen on every interface: set one address,"
                    + " for example 127.0.0.1");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(PORT + " = " + port + " is not a port: use 1-65535, or 0 for a free port");
        }
        if (port != 0 && port == security.httpsPort()) {
            throw new ConfigException(PORT + " and " + TrinoSecurity.HTTPS_PORT + " are both " + port
                    + ": the internal HTTP port and the clients' HTTPS port must differ");
        }
        if (!HEAP_SIZE.matcher(maxHeap).matches()) {
            throw new ConfigException(
                    MAX_HEAP + " = '" + maxHeap + "' is not a heap size: use -Xmx notation such" + " as 1G or 1536M");
        }
        requireHttpUri(CATALOG_URI, catalogUri);
        requireHttpUri(S3_ENDPOINT, s3Endpoint);
        if (warehouse.isBlank()) {
            throw new ConfigException(
                    WAREHOUSE + " is empty: set the warehouse of the REST catalog, for example " + DEFAULT_WAREHOUSE);
        }
        if (s3AccessKey.isPresent() != s3SecretKey.isPresent()) {
            throw new ConfigException("Set both " + S3_ACCESS_KEY + " and " + S3_SECRET_KEY
                    + ", or neither to use the AWS default credential chain");
        }
        if (s3Region.isBlank()) {
            throw new ConfigException(S3_REGION + " is empty: set a region, for example " + DEFAULT_S3_REGION);
        }
        if (!ENVIRONMENT_NAME.matcher(environment).matches()) {
            throw new ConfigException(ENVIRONMENT + " = '" + environment + "' is not a Trino environment name: use"
                    + " lower-case letters, digits and underscores, starting with a letter or digit");
        }
        if (startupTimeout.isNegative() || startupTimeout.isZero()) {
            throw new ConfigException(
                    STARTUP_TIMEOUT + " = " + startupTimeout + " must be positive, for example" + " 120s");
        }
        // Trino resolves relative paths against its own working directory; absolute paths keep both JVMs in agreement.
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        serverDirectory = serverDirectory.toAbsolutePath().normalize();
        javaHome = javaHome.map(path -> path.toAbsolutePath().normalize());
    }

    public static TrinoConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        Path dataDirectory = Path.of(source.requiredString(DATA_DIRECTORY));
        return new TrinoConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                dataDirectory,
                Path.of(source.requiredString(SERVER_DIRECTORY)),
                source.string(JAVA_HOME).map(Path::of),
                source.string(MAX_HEAP, DEFAULT_MAX_HEAP),
                requiredUri(source, CATALOG_URI),
                source.string(WAREHOUSE, DEFAULT_WAREHOUSE),
                requiredUri(source, S3_ENDPOINT),
                source.string(S3_ACCESS_KEY),
                source.string(S3_SECRET_KEY),
                source.string(S3_REGION, DEFAULT_S3_REGION),
                source.string(ENVIRONMENT, DEFAULT_ENVIRONMENT),
                source.duration(STARTUP_TIMEOUT, DEFAULT_STARTUP_TIMEOUT),
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value)),
                TrinoSecurity.from(source, dataDirectory));
    }

    private static URI requiredUri(ConfigSource source, String key) {
        source.requiredString(key);
        return source.uri(key, null);
    }

    private static void requireHttpUri(String key, URI uri) {
        String scheme = Optional.ofNullable(uri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        if (!HTTP_SCHEMES.contains(scheme) || uri.getHost() == null) {
            throw new ConfigException(key + " = '" + uri + "' must be an http or https URL with a host, for example"
                    + " http://127.0.0.1:8181");
        }
    }

    @Override
    public String toString() {
        return "TrinoConfig[host=" + host + ", port=" + port + ", dataDirectory=" + dataDirectory
                + ", serverDirectory=" + serverDirectory + ", javaHome=" + javaHome + ", maxHeap=" + maxHeap
                + ", catalogUri=" + catalogUri + ", warehouse=" + warehouse + ", s3Endpoint=" + s3Endpoint
                + ", s3AccessKey=" + s3AccessKey.orElse("(default credential chain)") + ", s3SecretKey="
                + s3SecretKey.map(secret -> "****").orElse("(default credential chain)") + ", s3Region=" + s3Region
                + ", environment=" + environment + ", startupTimeout=" + startupTimeout + ", catalogCredential="
                + catalogCredential.map(CatalogCredential::clientId).orElse("(none)") + ", security=" + security + "]";
    }
}

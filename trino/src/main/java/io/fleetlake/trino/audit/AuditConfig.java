package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.catalog.CatalogCredential;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.trino.EmbeddedTrinoSecrets;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Configuration of the audits: where Trino and the Iceberg REST catalog are and how long to wait for them. Built from a
 * {@link ConfigSource} with {@link #from(ConfigSource)}; every value is validated at construction. The defaults reach
 * the embedded stack ({@code fleet up}).
 *
 * @param trinoJdbcUrl Trino JDBC URL; the audits name tables as {@code iceberg.fleet.<table>}, so any catalog works
 * @param catalogUri base URI of the Iceberg REST catalog; the tag commands call it directly
 * @param trinoUser user name sent to Trino
 * @param queryTimeout how long one Trino query may run
 * @param catalogTimeout how long one REST catalog request may take, connecting included
 * @param catalogCredential the tag commands' client credentials for the catalog ({@value #CATALOG_CREDENTIAL}, a
 *     writer's: a tag is a commit); empty for a catalog without authentication
 * @param trinoPassword the Trino user's password ({@value #TRINO_PASSWORD}); when empty, the {@code analyst}'s is read
 *     from the embedded stack's data folder
 * @param trinoCaCertificate the CA certificate (PEM) of Trino's HTTPS certificate ({@value #TRINO_CA}); when empty,
 *     the data folder's Trino CA if there is one, else the JVM's trust store
 * @param dataDirectory the embedded stack's data folder ({@value #DATA_DIRECTORY}), where its Trino secrets are
 */
public record AuditConfig(
        String trinoJdbcUrl,
        URI catalogUri,
        String trinoUser,
        Duration queryTimeout,
        Duration catalogTimeout,
        Optional<CatalogCredential> catalogCredential,
        Optional<String> trinoPassword,
        Optional<Path> trinoCaCertificate,
        Path dataDirectory) {
    public static final String TRINO_JDBC_URL = "audit.trino-jdbc-url";
    public static final String CATALOG_URI = "audit.catalog-uri";
    public static final String TRINO_USER = "audit.trino-user";
    public static final String QUERY_TIMEOUT = "audit.query-timeout";
    public static final String CATALOG_TIMEOUT = "audit.catalog-timeout";
    public static final String CATALOG_CREDENTIAL = "audit.catalog-credential";
    public static final String TRINO_PASSWORD = "audit.trino-password";
    public static final String TRINO_CA = "audit.trino-ca";
    public static final String DATA_DIRECTORY = "audit.data-dir";

    /** Trino of the embedded stack ({@code StackPort.TRINO}). */
    public static final String DEFAULT_TRINO_JDBC_URL = "jdbc:trino://127.0.0.1:18443/iceberg";
    /** REST catalog of the embedded stack ({@code StackPort.CATALOG}), as text for option descriptions. */
    public static final String DEFAULT_CATALOG_URI_TEXT = "http://127.0.0.1:18181";

    public static final URI DEFAULT_CATALOG_URI = URI.create(DEFAULT_CATALOG_URI_TEXT);

    /** Audits only read (tags go to the catalog): the read-only analyst. */
    public static final String DEFAULT_TRINO_USER = TrinoUser.ANALYST.userName();

    public static final Path DEFAULT_DATA_DIRECTORY = Path.of(".fleet-data");
    public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofMinutes(5);
    public static final Duration DEFAULT_CATALOG_TIMEOUT = Duration.ofSeconds(30);

    private static final String JDBC_PREFIX = "jdbc:trino://";
    private static final Set<String> HTTP_SCHEMES = Set.of("http", "https");
    // Trino JDBC URL parameters that carry secrets.
    private static final Pattern SECRET_PARAMETER =
            Pattern.compile("(?i)([?&](?:password|accessToken|SSLKeyStorePassword|SSLTrustStorePassword)=)[^&]*");

    public AuditConfig {
        requireNonNull(trinoJdbcUrl, "trinoJdbcUrl is null");
        requireNonNull(catalogUri, "catalogUri is null");
        requireNonNull(trinoUser, "trinoUser is null");
        requireNonNull(queryTimeout, "queryTimeout is null");
        requireNonNull(catalogTimeout, "catalogTimeout is null");
        requireNonNull(catalogCredential, "catalogCredential is null");
        requireNonNull(trinoPassword, "trinoPassword is null");
        requireNonNull(trinoCaCertificate, "trinoCaCertificate is null");
        requireNonNull(dataDirectory, "dataDirectory is null");
        if (!trinoJdbcUrl.startsWith(JDBC_PREFIX) || trinoJdbcUrl.length() == JDBC_PREFIX.length()) {
            throw new ConfigException(TRINO_JDBC_URL + " = '" + redact(trinoJdbcUrl) + "' is not a Trino JDBC URL: use"
                    + " jdbc:trino://<host>:<port>/iceberg, for example " + DEFAULT_TRINO_JDBC_URL);
        }
        String scheme = Optional.ofNullable(catalogUri.getScheme()).orElse("").toLowerCase(Locale.ROOT);
        if (!HTTP_SCHEMES.contains(scheme) || catalogUri.getHost() == null || catalogUri.getRawQuery() != null) {
            throw new ConfigException(CATALOG_URI + " = '" + catalogUri + "' must be an http or https URL with a host"
                    + " and no query, for example " + DEFAULT_CATALOG_URI);
        }
        if (trinoUser.isBlank()) {
            throw new ConfigException(
                    TRINO_USER + " is empty: set the user sent to Trino, for example " + DEFAULT_TRINO_USER);
        }
        requirePositive(QUERY_TIMEOUT, queryTimeout);
        requirePositive(CATALOG_TIMEOUT, catalogTimeout);
        if (queryTimeout.toSeconds() > Integer.MAX_VALUE) {
            throw new ConfigException(QUERY_TIMEOUT + " = " + queryTimeout + " is too long: use at most "
                    + Integer.MAX_VALUE + " seconds");
        }
    }

    /** A configuration without a catalog credential. */
    public AuditConfig(
            String trinoJdbcUrl, URI catalogUri, String trinoUser, Duration queryTimeout, Duration catalogTimeout) {
        this(trinoJdbcUrl, catalogUri, trinoUser, queryTimeout, catalogTimeout, Optional.empty());
    }

    /** A configuration that finds Trino's password and CA in the default data folder. */
    public AuditConfig(
            String trinoJdbcUrl,
            URI catalogUri,
            String trinoUser,
            Duration queryTimeout,
            Duration catalogTimeout,
            Optional<CatalogCredential> catalogCredential) {
        this(
                trinoJdbcUrl,
                catalogUri,
                trinoUser,
                queryTimeout,
                catalogTimeout,
                catalogCredential,
                Optional.empty(),
                Optional.empty(),
                DEFAULT_DATA_DIRECTORY);
    }

    public static AuditConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new AuditConfig(
                source.string(TRINO_JDBC_URL, DEFAULT_TRINO_JDBC_URL),
                source.uri(CATALOG_URI, DEFAULT_CATALOG_URI),
                source.string(TRINO_USER, DEFAULT_TRINO_USER),
                source.duration(QUERY_TIMEOUT, DEFAULT_QUERY_TIMEOUT),
                source.duration(CATALOG_TIMEOUT, DEFAULT_CATALOG_TIMEOUT),
                source.secret(CATALOG_CREDENTIAL, value -> CatalogCredential.parse(CATALOG_CREDENTIAL, value)),
                source.string(TRINO_PASSWORD),
                source.string(TRINO_CA).map(Path::of),
                source.path(DATA_DIRECTORY, DEFAULT_DATA_DIRECTORY));
    }

    /**
     * Connections as {@link #trinoUser()}: with the configured password, or else the analyst's of the data folder.
     *
     * @throws ConfigException when there is no password for the user
     */
    public TrinoConnectionFactory trinoConnections() {
        EmbeddedTrinoSecrets embedded = EmbeddedTrinoSecrets.of(dataDirectory);
        String password = trinoPassword
                .or(() -> trinoUser.equals(TrinoUser.ANALYST.userName())
                        ? embedded.existingPassword(TrinoUser.ANALYST)
                        : Optional.empty())
                .orElseThrow(() -> new ConfigException("Set " + TRINO_PASSWORD + " (environment "
                        + ConfigSource.environmentName(TRINO_PASSWORD) + ") to the password of the Trino user "
                        + trinoUser + ", or " + DATA_DIRECTORY + " to the embedded stack's data folder (now "
                        + dataDirectory + ")"));
        Optional<Path> trustStore = trinoCaCertificate.or(
                () -> Optional.of(embedded.caCertificate()).filter(Files::isRegularFile));
        return new TrinoConnectionFactory(trinoJdbcUrl, trinoUser, password, trustStore, "fleet-audit");
    }

    /** The defaults: the embedded stack on this machine. */
    public static AuditConfig defaults() {
        return from(ConfigSource.empty());
    }

    public AuditConfig withTrinoJdbcUrl(String url) {
        return new AuditConfig(
                url,
                catalogUri,
                trinoUser,
                queryTimeout,
                catalogTimeout,
                catalogCredential,
                trinoPassword,
                trinoCaCertificate,
                dataDirectory);
    }

    public AuditConfig withCatalogUri(URI uri) {
        return new AuditConfig(
                trinoJdbcUrl,
                uri,
                trinoUser,
                queryTimeout,
                catalogTimeout,
                catalogCredential,
                trinoPassword,
                trinoCaCertificate,
                dataDirectory);
    }

    /** The JDBC URL with secret parameters replaced by {@code ****}, for messages. */
    public String redactedTrinoJdbcUrl() {
        return redact(trinoJdbcUrl);
    }

    static String redact(String jdbcUrl) {
        return SECRET_PARAMETER.matcher(jdbcUrl).replaceAll("$1****");
    }

    private static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " = " + value + " must be positive, for example 30s");
        }
    }

    @Override
    public String toString() {
        return "AuditConfig[trinoJdbcUrl=" + redactedTrinoJdbcUrl() + ", catalogUri=" + catalogUri + ", trinoUser="
                + trinoUser + ", queryTimeout=" + queryTimeout + ", catalogTimeout=" + catalogTimeout
                + ", catalogCredential="
                + catalogCredential.map(CatalogCredential::clientId).orElse("(none)") + ", trinoPassword="
                + trinoPassword.map(password -> "****").orElse("(from the data folder)") + ", trinoCaCertificate="
                + trinoCaCertificate.map(Path::toString).orElse("(from the data folder)") + ", dataDirectory="
                + dataDirectory + "]";
    }
}

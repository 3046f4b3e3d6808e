package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.common.config.S3StorageConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Configuration of the Iceberg REST catalog server, read once from a {@link ConfigSource} and validated when built.
 *
 * <p>The catalog database is a SQLite file {@code <catalog.data-dir>/catalog.db} unless {@code catalog.jdbc-url} names
 * another database (PostgreSQL). Table files are read and written through {@code catalog.io-impl}, by default Iceberg's
 * S3FileIO against the S3-compatible endpoint {@code catalog.s3-endpoint}.
 */
public final class CatalogServerConfig {
    public static final String HOST = "catalog.host";
    public static final String PORT = "catalog.port";
    public static final String DATA_DIRECTORY = "catalog.data-dir";
    public static final String JDBC_URL = "catalog.jdbc-url";
    public static final String JDBC_USER = "catalog.jdbc-user";
    public static final String JDBC_PASSWORD = "catalog.jdbc-password";
    public static final String WAREHOUSE = "catalog.warehouse";
    public static final String IO_IMPLEMENTATION = "catalog.io-impl";
    public static final String S3_ENDPOINT = "catalog.s3-endpoint";
    public static final String S3_ACCESS_KEY = "catalog.s3-access-key";
    public static final String S3_SECRET_KEY = "catalog.s3-secret-key";
    public static final String S3_REGION = "catalog.s3-region";
    public static final String S3_PATH_STYLE_ACCESS = "catalog.s3-path-style-access";
    public static final String BOOTSTRAP_TABLES = "catalog.bootstrap-tables";
    public static final String AUTHENTICATION = "catalog.authentication";
    public static final String CLIENTS_FILE = "catalog.clients-file";
    public static final String TOKEN_SIGNING_KEY = "catalog.token-signing-key";
    public static final String TOKEN_LIFETIME = "catalog.token-lifetime";
    public static final String TOKEN_MAX_FAILURES = "catalog.token-max-failures";
    public static final String TOKEN_FAILURE_WINDOW = "catalog.token-failure-window";
    public static final String MAX_REQUEST_BYTES = "catalog.max-request-bytes";
    public static final String MAX_CONCURRENT_REQUESTS = "catalog.max-concurrent-requests";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8181;
    public static final String DEFAULT_WAREHOUSE = "s3://warehouse/";
    public static final String S3_FILE_IO = "org.apache.iceberg.aws.s3.S3FileIO";
    public static final String DEFAULT_S3_REGION = S3StorageConfig.DEFAULT_REGION;
    /** The SQLite file created in {@code catalog.data-dir} when no JDBC URL is configured. */
    public static final String SQLITE_FILE_NAME = "catalog.db";
    /** The clients file created in {@code catalog.data-dir} when {@code catalog.clients-file} is not set. */
    public static final String CLIENTS_FILE_NAME = "clients.properties";

    public static final Duration DEFAULT_TOKEN_LIFETIME = Duration.ofHours(1);
    /**
     * Refused token requests an address may make within {@link #DEFAULT_TOKEN_FAILURE_WINDOW}: enough for a client
     * whose secret was just rotated to retry a few times, far too few to guess a 256-bit secret.
     */
    public static final int DEFAULT_TOKEN_MAX_FAILURES = 10;

    public static final Duration DEFAULT_TOKEN_FAILURE_WINDOW = Duration.ofMinutes(15);
    /** Table metadata updates are small, but a create request carries a whole schema; 16 MiB leaves ample room. */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 16L * 1024 * 1024;
    /**
     * The stack's clients (pipeline, maintenance, Trino, Spark, exporter, notebooks) hold a few connections each; 64
     * at once bounds what the catalog holds in memory ({@link #DEFAULT_MAX_REQUEST_BYTES} each at most).
     */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 64;
    /** A smaller body limit would refuse the create request of an ordinary table. */
    static final long MINIMUM_MAX_REQUEST_BYTES = 64L * 1024;
    /** A signing key shorter than this (in characters) is refused: HMAC-SHA256 wants at least 256 bits. */
    static final int MINIMUM_SIGNING_KEY_LENGTH = 32;

    private static final String SQLITE_URL_PREFIX = "jdbc:sqlite:";
    private static final String POSTGRESQL_URL_PREFIX = "jdbc:postgresql:";
    private static final String REDACTED = "****";

    private final String host;
    private final int port;
    private final Optional<Path> dataDirectory;
    private final String jdbcUrl;
    private final Optional<String> jdbcUser;
    private final Optional<String> jdbcPassword;
    private final String warehouse;
    private final String ioImplementation;
    private final S3StorageConfig s3Storage;
    private final boolean bootstrapTables;
    private final Authentication authentication;
    private final Optional<Path> clientsFile;
    private final Optional<String> tokenSigningKey;
    private final Duration tokenLifetime;
    private final int tokenMaxFailures;
    private final Duration tokenFailureWindow;
    private final long maxRequestBytes;
    private final int maxConcurrentRequests;

    /** How the server authenticates requests ({@value #AUTHENTICATION}). */
    public enum Authentication {
        /** OAuth2 client credentials and bearer tokens with roles: the default. */
        OAUTH2,
        /** Nobody is asked who they are and everyone may do everything: only for tests and trusted networks. */
        NONE;

        static Authentication named(String value) {
            for (Authentication authentication : values()) {
                if (authentication.name().equalsIgnoreCase(value.trim())) {
                    return authentication;
                }
            }
            throw new ConfigException(AUTHENTICATION + " = '" + value + "' is not supported: use oauth2 or none");
        }
    }

    private CatalogServerConfig(ConfigSource source) {
        this.host = source.string(HOST, DEFAULT_HOST);
        this.port = source.port(PORT, DEFAULT_PORT);
        this.dataDirectory = source.string(DATA_DIRECTORY).map(present -> source.path(DATA_DIRECTORY, null));
        this.jdbcUrl = jdbcUrl(source, dataDirectory);
        this.jdbcUser = source.string(JDBC_USER);
        this.jdbcPassword = source.string(JDBC_PASSWORD);
        this.warehouse = source.string(WAREHOUSE, DEFAULT_WAREHOUSE);
        this.ioImplementation = source.string(IO_IMPLEMENTATION, S3_FILE_IO);
        this.s3Storage = S3StorageConfig.from(source, "catalog");
        this.bootstrapTables = source.bool(BOOTSTRAP_TABLES, true);
        this.authentication = Authentication.named(source.string(AUTHENTICATION, "oauth2"));
        this.clientsFile = source.string(CLIENTS_FILE)
                .map(present -> source.path(CLIENTS_FILE, null))
                .or(() -> dataDirectory.map(directory -> directory.resolve(CLIENTS_FILE_NAME)));
        this.tokenSigningKey = source.string(TOKEN_SIGNING_KEY);
        this.tokenLifetime = source.duration(TOKEN_LIFETIME, DEFAULT_TOKEN_LIFETIME);
        this.tokenMaxFailures = source.integer(TOKEN_MAX_FAILURES, DEFAULT_TOKEN_MAX_FAILURES);
        this.tokenFailureWindow = source.duration(TOKEN_FAILURE_WINDOW, DEFAULT_TOKEN_FAILURE_WINDOW);
        this.maxRequestBytes = source.longValue(MAX_REQUEST_BYTES, DEFAULT_MAX_REQUEST_BYTES);
        this.maxConcurrentRequests = source.integer(MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_CONCURRENT_REQUESTS);
        validate();
    }

    /**
     * Reads and validates the {@code catalog.*} keys.
     *
     * @throws ConfigException when a value is missing or invalid; the message says which key to set and how
     */
    public static CatalogServerConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new CatalogServerConfig(source);
    }

    private static String jdbcUrl(ConfigSource source, Optional<Path> dataDirectory) {
        Optional<String> configured = source.string(JDBC_URL);
        if (configured.isPresent()) {
            return configured.get();
        }
        return dataDirectory
                .map(directory ->
                        SQLITE_URL_PREFIX + directory.resolve(SQLITE_FILE_NAME).toAbsolutePath())
                .orElseThrow(() -> new ConfigException("The catalog needs a database: set " + DATA_DIRECTORY
                        + " (a directory for the SQLite file " + SQLITE_FILE_NAME + ", environment variable "
                        + ConfigSource.environmentName(DATA_DIRECTORY) + ") or " + JDBC_URL
                        + " (for example jdbc:postgresql://127.0.0.1:5432/catalog)"));
    }

    private void validate() {
        if (authentication == Authentication.OAUTH2 && clientsFile.isEmpty()) {
            throw new ConfigException("The catalog needs its clients: set " + CLIENTS_FILE
                    + " (the owner-only file of client ids, roles and secret hashes) or " + DATA_DIRECTORY
                    + " (which holds " + CLIENTS_FILE_NAME + " by default), or " + AUTHENTICATION
                    + "=none to serve anyone");
        }
        if (tokenSigningKey.isPresent() && tokenSigningKey.get().length() < MINIMUM_SIGNING_KEY_LENGTH) {
            throw new ConfigException(TOKEN_SIGNING_KEY + " must have at least " + MINIMUM_SIGNING_KEY_LENGTH
                    + " characters (the value is not shown); leave it unset to use a random key per start");
        }
        if (tokenLifetime.compareTo(Duration.ofSeconds(1)) < 0 || tokenLifetime.compareTo(Duration.ofDays(1)) > 0) {
            throw new ConfigException(
                    TOKEN_LIFETIME + " = " + tokenLifetime + " must be between 1 s and 1 day, such as 1h");
        }
        if (tokenMaxFailures < 1) {
            throw new ConfigException(TOKEN_MAX_FAILURES + " = " + tokenMaxFailures + " must be at least 1, such as "
                    + DEFAULT_TOKEN_MAX_FAILURES);
        }
        if (tokenFailureWindow.isNegative() || tokenFailureWindow.isZero()) {
            throw new ConfigException(
                    TOKEN_FAILURE_WINDOW + " = " + tokenFailureWindow + " must be a positive duration such as 15m");
        }
        if (maxRequestBytes < MINIMUM_MAX_REQUEST_BYTES) {
            throw new ConfigException(MAX_REQUEST_BYTES + " = " + maxRequestBytes + " must be at least "
                    + MINIMUM_MAX_REQUEST_BYTES + " bytes (a table's create request carries its schema), such as "
                    + DEFAULT_MAX_REQUEST_BYTES);
        }
        if (maxConcurrentRequests < 1) {
            throw new ConfigException(MAX_CONCURRENT_REQUESTS + " = " + maxConcurrentRequests
                    + " must be at least 1, such as " + DEFAULT_MAX_CONCURRENT_REQUESTS);
        }
        if (host.isBlank()) {
            throw new ConfigException(HOST + " must not be blank: set the address to listen on, such as 127.0.0.1");
        }
        if (!usesSqlite() && !jdbcUrl.startsWith(POSTGRESQL_URL_PREFIX)) {
            throw new ConfigException(JDBC_URL + " = '" + jdbcUrl + "' is not supported: use a URL starting with "
                    + SQLITE_URL_PREFIX + " or " + POSTGRESQL_URL_PREFIX);
        }
        if (usesSqlite() && (jdbcUser.isPresent() || jdbcPassword.isPresent())) {
            throw new ConfigException(JDBC_USER + " and " + JDBC_PASSWORD
                    + " apply to PostgreSQL only; remove them or set " + JDBC_URL + " to a jdbc:postgresql: URL");
        }
        if (!warehouse.contains("://")) {
            throw new ConfigException(WAREHOUSE + " = '" + warehouse
                    + "' is not a location URI: use the bucket and prefix for table files, such as s3://warehouse/");
        }
        if (s3Storage.accessKey().isPresent() != s3Storage.secretKey().isPresent()) {
            throw new ConfigException("Set both " + S3_ACCESS_KEY + " and " + S3_SECRET_KEY
                    + ", or neither to use the AWS default credential chain");
        }
        if (s3Storage.endpoint().isPresent()) {
            String scheme =
                    Optional.ofNullable(s3Storage.endpoint().get().getScheme()).orElse("");
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new ConfigException(
                        S3_ENDPOINT + " = '" + s3Storage.endpoint().get()
                                + "' must be an http:// or https:// URL, such as http://127.0.0.1:9000");
            }
        }
        if (usesS3FileIo()) {
            if (s3Storage.endpoint().isEmpty()) {
                throw new ConfigException("Missing required configuration " + S3_ENDPOINT
                        + ": set the URL of the S3-compatible storage, such as http://127.0.0.1:9000 (environment"
                        + " variable " + ConfigSource.environmentName(S3_ENDPOINT) + ")");
            }
            String scheme = warehouse.substring(0, warehouse.indexOf("://")).toLowerCase(Locale.ROOT);
            if (!scheme.equals("s3") && !scheme.equals("s3a")) {
                throw new ConfigException(WAREHOUSE + " = '" + warehouse + "' must be an s3:// location when "
                        + IO_IMPLEMENTATION + " is S3FileIO");
            }
        }
    }

    public String host() {
        return host;
    }

    /** The port to listen on; 0 picks a free one (see {@link RestCatalogServer#port()}). */
    public int port() {
        return port;
    }

    /** The directory holding the default SQLite file, when configured. */
    public Optional<Path> dataDirectory() {
        return dataDirectory;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public Optional<String> jdbcUser() {
        return jdbcUser;
    }

    public Optional<String> jdbcPassword() {
        return jdbcPassword;
    }

    /** Whether the catalog database is SQLite, which allows only one writer at a time. */
    public boolean usesSqlite() {
        return jdbcUrl.startsWith(SQLITE_URL_PREFIX);
    }

    public String warehouse() {
        return warehouse;
    }

    /** Class name of the Iceberg FileIO that reads and writes table metadata. */
    public String ioImplementation() {
        return ioImplementation;
    }

    public boolean usesS3FileIo() {
        return ioImplementation.equals(S3_FILE_IO);
    }

    /** How S3FileIO reaches the storage under the tables: the {@code catalog.s3-*} keys. */
    public S3StorageConfig s3Storage() {
        return s3Storage;
    }

    /**
     * Whether the server, on start, creates the fleet namespace and tables that are absent and adds the defined columns
     * the tables lack ({@link FleetTables#ensure}).
     */
    public boolean bootstrapTables() {
        return bootstrapTables;
    }

    public Authentication authentication() {
        return authentication;
    }

    /** The owner-only file of the clients, their roles and secret hashes ({@code CatalogClients}). */
    public Optional<Path> clientsFile() {
        return clientsFile;
    }

    /** The HMAC key tokens are signed with; empty for a random key per start (tokens do not survive a restart). */
    public Optional<String> tokenSigningKey() {
        return tokenSigningKey;
    }

    /** How long an issued token is valid. */
    public Duration tokenLifetime() {
        return tokenLifetime;
    }

    /** Refused token requests an address may make within {@link #tokenFailureWindow()}; its next one is 429. */
    public int tokenMaxFailures() {
        return tokenMaxFailures;
    }

    /** How long refused token requests count against their address. */
    public Duration tokenFailureWindow() {
        return tokenFailureWindow;
    }

    /** The largest request body accepted; a larger one is 413. */
    public long maxRequestBytes() {
        return maxRequestBytes;
    }

    /** Requests served at once; one more is 503 at once. */
    public int maxConcurrentRequests() {
        return maxConcurrentRequests;
    }

    @Override
    public String toString() {
        return "CatalogServerConfig{host=" + host + ", port=" + port + ", dataDirectory="
                + dataDirectory.map(Path::toString).orElse("") + ", jdbcUrl=" + jdbcUrl + ", jdbcUser="
                + jdbcUser.orElse("") + ", jdbcPassword="
                + jdbcPassword.map(value -> REDACTED).orElse("")
                + ", warehouse=" + warehouse + ", ioImplementation=" + ioImplementation + ", " + s3Storage.describe()
                + ", bootstrapTables=" + bootstrapTables
                + ", authentication=" + authentication.name().toLowerCase(Locale.ROOT) + ", clientsFile="
                + clientsFile.map(Path::toString).orElse("") + ", tokenSigningKey="
                + tokenSigningKey.map(value -> REDACTED).orElse("") + ", tokenLifetime=" + tokenLifetime
                + ", tokenMaxFailures=" + tokenMaxFailures
                + ", tokenFailureWindow=" + tokenFailureWindow + ", maxRequestBytes=" + maxRequestBytes
                + ", maxConcurrentRequests=" + maxConcurrentRequests + "}";
    }
}

package io.fleetlake.dashboard;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.model.trino.TrinoConnectionFactory;
import io.fleetlake.model.trino.TrinoUser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Configuration of the operations dashboard, keys {@code dashboard.*}.
 *
 * @param host address the HTTP server binds to; never a wildcard
 * @param port HTTP port, 0 for a free one
 * @param redisUri Redis with the fleet's current state, {@code redis://[user:password@]host:port[/database]} or
 *     {@code rediss://}; the password is redacted in {@link #toString()}
 * @param trinoJdbcUrl Trino with the Iceberg catalog, for replay and snapshots; query parameters (which may hold a
 *     password) are redacted in {@link #toString()}
 * @param trinoUser the read-only Trino user the dashboard queries as ({@value #TRINO_USER})
 * @param trinoPassword its password ({@value #TRINO_PASSWORD}); never printed; required to read the history
 * @param trinoCaCertificate the CA certificate (PEM) Trino's certificate is signed by ({@value #TRINO_CA}); empty to
 *     trust the JVM's default trust store
 * @param flinkRestUri REST API of the Flink cluster running the fleet pipeline, for its counters
 * @param staleAfter a vehicle whose newest fix is older than this is shown as stale
 * @param pollInterval how often the page asks for new data
 * @param replayLookback how far before the replay instant the history is scanned for each vehicle's newest position;
 *     a vehicle silent for longer is missing from the replay
 * @param flinkRestTls the client certificate for a Flink REST API with mutual TLS ({@code
 *     dashboard.flink-rest-key-store}, {@code -trust-store}, {@code -store-password}, all or none); empty for plain
 *     HTTP
 */
public record DashboardConfig(
        String host,
        int port,
        URI redisUri,
        String trinoJdbcUrl,
        String trinoUser,
        Optional<String> trinoPassword,
        Optional<Path> trinoCaCertificate,
        URI flinkRestUri,
        Duration staleAfter,
        Duration pollInterval,
        Duration replayLookback,
        Optional<FlinkRestTls> flinkRestTls) {
    public static final String PREFIX = "dashboard.";
    public static final String HOST = "dashboard.host";
    public static final String PORT = "dashboard.port";
    public static final String REDIS_URI = "dashboard.redis-uri";
    public static final String TRINO_JDBC_URL = "dashboard.trino-jdbc-url";
    public static final String TRINO_USER = "dashboard.trino-user";
    public static final String TRINO_PASSWORD = "dashboard.trino-password";
    public static final String TRINO_CA = "dashboard.trino-ca";
    public static final String FLINK_REST_URI = "dashboard.flink-rest-uri";
    public static final String STALE_AFTER = "dashboard.stale-after";
    public static final String POLL_INTERVAL = "dashboard.poll-interval";
    public static final String REPLAY_LOOKBACK = "dashboard.replay-lookback";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8088;
    public static final URI DEFAULT_REDIS_URI = URI.create("redis://127.0.0.1:6379");
    public static final String DEFAULT_TRINO_JDBC_URL = "jdbc:trino://127.0.0.1:8443/iceberg";
    public static final String DEFAULT_TRINO_USER = TrinoUser.DASHBOARD.userName();
    public static final URI DEFAULT_FLINK_REST_URI = URI.create("http://127.0.0.1:8081");
    public static final Duration DEFAULT_STALE_AFTER = Duration.ofMinutes(2);
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);
    public static final Duration DEFAULT_REPLAY_LOOKBACK = Duration.ofDays(1);

    /** Faster polling only loads Redis and the browser: the pipeline writes Redis in 100 ms batches. */
    static final Duration MINIMUM_POLL_INTERVAL = Duration.ofMillis(200);

    private static final String TRINO_URL_PREFIX = "jdbc:trino://";
    private static final Set<String> WILDCARD_ADDRESSES = Set.of("0.0.0.0", "::", "[::]");
    private static final Set<String> REDIS_SCHEMES = Set.of("redis", "rediss");
    private static final Set<String> HTTP_SCHEMES = Set.of("http", "https");

    public DashboardConfig {
        requireNonNull(host, "host is null");
        requireNonNull(redisUri, "redisUri is null");
        requireNonNull(trinoJdbcUrl, "trinoJdbcUrl is null");
        requireNonNull(trinoUser, "trinoUser is null");
        requireNonNull(trinoPassword, "trinoPassword is null");
        requireNonNull(trinoCaCertificate, "trinoCaCertificate is null");
        requireNonNull(flinkRestUri, "flinkRestUri is null");
        requireNonNull(staleAfter, "staleAfter is null");
        requireNonNull(pollInterval, "pollInterval is null");
        requireNonNull(replayLookback, "replayLookback is null");
        requireNonNull(flinkRestTls, "flinkRestTls is null");
        if (flinkRestTls.isPresent() && !"https".equalsIgnoreCase(flinkRestUri.getScheme())) {
            throw new ConfigException(FLINK_REST_URI + " = '" + Redaction.uri(flinkRestUri)
                    + "' must be https when the Flink REST client's certificate is configured");
        }
        if (host.isBlank() || WILDCARD_ADDRESSES.contains(host)) {
            throw new ConfigException(HOST + " = '" + host + "' is not allowed: the dashboard binds to one address;"
                    + " set a concrete address such as 127.0.0.1");
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException(PORT + " = " + port + " must be between 0 (a free port) and 65535");
        }
        requireServerUri(REDIS_URI, redisUri, REDIS_SCHEMES, "redis://127.0.0.1:6379");
        if (!trinoJdbcUrl.startsWith(TRINO_URL_PREFIX) || trinoJdbcUrl.length() == TRINO_URL_PREFIX.length()) {
            throw new ConfigException(TRINO_JDBC_URL + " = '" + Redaction.jdbcUrl(trinoJdbcUrl)
                    + "' is not a Trino JDBC URL: use jdbc:trino://host:port/iceberg");
        }
        requireServerUri(FLINK_REST_URI, flinkRestUri, HTTP_SCHEMES, "http://127.0.0.1:8081");
        requirePositive(STALE_AFTER, staleAfter, "2m");
        requirePositive(REPLAY_LOOKBACK, replayLookback, "1d");
        if (pollInterval.compareTo(MINIMUM_POLL_INTERVAL) < 0) {
            throw new ConfigException(POLL_INTERVAL + " = " + pollInterval + " is too short: use at least "
                    + MINIMUM_POLL_INTERVAL.toMillis() + "ms, such as 2s");
        }
        if (pollInterval.compareTo(staleAfter) >= 0) {
            throw new ConfigException(POLL_INTERVAL + " = " + pollInterval + " must be shorter than " + STALE_AFTER
                    + " = " + staleAfter + ", or every vehicle would look stale between two refreshes");
        }
    }

    /** Reads the {@code dashboard.*} keys; every key has a default. */
    public static DashboardConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new DashboardConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.uri(REDIS_URI, DEFAULT_REDIS_URI),
                source.string(TRINO_JDBC_URL, DEFAULT_TRINO_JDBC_URL),
                source.string(TRINO_USER, DEFAULT_TRINO_USER),
                source.string(TRINO_PASSWORD),
                source.string(TRINO_CA).map(Path::of),
                source.uri(FLINK_REST_URI, DEFAULT_FLINK_REST_URI),
                source.duration(STALE_AFTER, DEFAULT_STALE_AFTER),
                source.duration(POLL_INTERVAL, DEFAULT_POLL_INTERVAL),
                source.duration(REPLAY_LOOKBACK, DEFAULT_REPLAY_LOOKBACK),
                flinkRestTls(source));
    }

    private static Optional<FlinkRestTls> flinkRestTls(ConfigSource source) {
        try {
            return FlinkRestTls.fromOptions(PREFIX, source::string);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "DashboardConfig{host=" + host + ", port=" + port + ", redisUri=" + Redaction.uri(redisUri)
                + ", trinoJdbcUrl=" + Redaction.jdbcUrl(trinoJdbcUrl) + ", trinoUser=" + trinoUser + ", trinoPassword="
                + trinoPassword.map(password -> "****").orElse("(none)") + ", trinoCaCertificate="
                + trinoCaCertificate.map(Path::toString).orElse("(JVM default)") + ", flinkRestUri="
                + Redaction.uri(flinkRestUri)
                + ", staleAfter=" + staleAfter + ", pollInterval=" + pollInterval + ", replayLookback="
                + replayLookback + ", flinkRestTls=" + flinkRestTls.isPresent() + "}";
    }

    /**
     * Connections to Trino as {@link #trinoUser()}.
     *
     * @throws ConfigException when no password is configured: Trino refuses every user without one
     */
    public TrinoConnectionFactory trinoConnections() {
        String password = trinoPassword.orElseThrow(() -> new ConfigException("Set " + TRINO_PASSWORD
                + " (environment " + ConfigSource.environmentName(TRINO_PASSWORD) + "): the password of the Trino user "
                + trinoUser + ", which the replay and the snapshot list query as"));
        return new TrinoConnectionFactory(trinoJdbcUrl, trinoUser, password, trinoCaCertificate, "fleet-dashboard");
    }

    private static void requireServerUri(String key, URI uri, Set<String> schemes, String example) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!schemes.contains(scheme) || uri.getHost() == null) {
            throw new ConfigException(key + " = '" + Redaction.uri(uri) + "' must be a " + String.join(" or ", schemes)
                    + " URI with a host, such as " + example);
        }
    }

    private static void requirePositive(String key, Duration value, String example) {
        if (value.isNegative() || value.isZero()) {
            throw new ConfigException(key + " = " + value + " must be a positive duration such as " + example);
        }
    }
}

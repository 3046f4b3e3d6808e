package io.fleetlake.catalog;

import static java.util.Objects.requireNonNull;

import io.fleetlake.catalog.auth.OAuth2Authority;
import io.fleetlake.catalog.auth.TokenSigner;
import io.fleetlake.catalog.rest.CatalogRoutes;
import io.fleetlake.catalog.rest.JavalinHttpAdapter;
import io.fleetlake.common.http.FailedAttemptLimiter;
import io.fleetlake.http.RequestLimits;
import io.fleetlake.http.RequestObserver;
import io.fleetlake.identity.catalog.CatalogClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Iceberg REST catalog server, embeddable: {@link #start()} opens the catalog database, brings the fleet tables
 * up to their definitions when configured to ({@link FleetTables#ensure}), and listens for HTTP; {@link #close()}
 * stops listening and closes the database.
 *
 * <p>Health check: {@code GET /healthz} answers 200 once the server is started, without authentication. Every other
 * request needs a bearer token from {@code POST /v1/oauth/tokens} (see {@link OAuth2Authority}), unless {@code
 * catalog.authentication=none}.
 */
public final class RestCatalogServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RestCatalogServer.class);

    private final CatalogServerConfig config;
    private final RequestObserver observer;
    private JdbcCatalog catalog;
    private JavalinHttpAdapter http;

    public RestCatalogServer(CatalogServerConfig config) {
        this(config, RequestObserver.NONE);
    }

    /** @param observer told about every request answered, such as {@link CatalogMetrics} */
    public RestCatalogServer(CatalogServerConfig config, RequestObserver observer) {
        this.config = requireNonNull(config, "config is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /**
     * Starts the server; on failure everything opened so far is closed again.
     *
     * @throws IllegalStateException when the server was already started
     */
    public synchronized RestCatalogServer start() {
        if (catalog != null) {
            throw new IllegalStateException("The catalog server is already started");
        }
        config.dataDirectory().ifPresent(RestCatalogServer::createDirectory);
        JdbcCatalog opened = JdbcCatalogFactory.open(config);
        try {
            if (config.bootstrapTables()) {
                FleetTables.ensure(opened);
                FleetViews.ensure(opened);
            }
            http = JavalinHttpAdapter.start(
                    CatalogRoutes.router(opened, clientDefaults(config), observer, authority(config)),
                    new RequestLimits(config.maxRequestBytes(), config.maxConcurrentRequests()),
                    new FailedAttemptLimiter(config.tokenMaxFailures(), config.tokenFailureWindow(), Clock.systemUTC()),
                    config.host(),
                    config.port());
        } catch (RuntimeException e) {
            try {
                opened.close();
            } catch (RuntimeException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
        catalog = opened;
        LOG.info("Catalog database {}, warehouse {}", config.jdbcUrl(), config.warehouse());
        return this;
    }

    /** The port the server listens on; differs from the configured one when that was 0. */
    public synchronized int port() {
        if (http == null) {
            throw new IllegalStateException("The catalog server is not started");
        }
        return http.port();
    }

    /** The catalog URI for clients, such as {@code http://127.0.0.1:8181}. */
    public URI uri() {
        return URI.create("http://" + config.host() + ":" + port());
    }

    @Override
    public synchronized void close() {
        if (catalog == null) {
            return;
        }
        try {
            http.close();
        } finally {
            JdbcCatalog closing = catalog;
            catalog = null;
            http = null;
            closing.close();
        }
        LOG.info("Iceberg REST catalog stopped");
    }

    /**
     * What clients learn from {@code GET /v1/config} as defaults: where the storage is, never credentials (every
     * reader may call it). Clients still supply their own keys and may override any of these.
     */
    static Map<String, String> clientDefaults(CatalogServerConfig config) {
        return config.usesS3FileIo() ? JdbcCatalogFactory.storageLocationProperties(config) : Map.of();
    }

    /** The authority over the configured clients file, or none when the server serves everyone. */
    static Optional<OAuth2Authority> authority(CatalogServerConfig config) {
        if (config.authentication() == CatalogServerConfig.Authentication.NONE) {
            LOG.warn(
                    "{}=none: anyone who reaches {}:{} may read, write, drop and purge every table",
                    CatalogServerConfig.AUTHENTICATION,
                    config.host(),
                    config.port());
            return Optional.empty();
        }
        Path file = config.clientsFile().orElseThrow();
        CatalogClients clients = new CatalogClients(file);
        int known = clients.clients().size();
        if (known == 0) {
            LOG.warn("No catalog clients in {}: nobody can get a token until clients are added", file);
        } else {
            LOG.info("{} catalog client(s) in {}", known, file);
        }
        TokenSigner signer = config.tokenSigningKey()
                .map(key -> TokenSigner.withKey(key, Clock.systemUTC()))
                .orElseGet(() -> {
                    LOG.info(
                            "No {}: tokens are signed with a random key and do not outlive this process",
                            CatalogServerConfig.TOKEN_SIGNING_KEY);
                    return TokenSigner.withRandomKey(Clock.systemUTC());
                });
        return Optional.of(new OAuth2Authority(clients, signer, config.tokenLifetime()));
    }

    private static void createDirectory(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create the catalog data directory " + directory.toAbsolutePath() + ": check "
                            + CatalogServerConfig.DATA_DIRECTORY + " and its permissions",
                    e);
        }
    }
}

package io.fleetlake.dashboard;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.dashboard.api.DashboardRoutes;
import io.fleetlake.dashboard.health.DashboardHealthConfig;
import io.fleetlake.dashboard.health.HealthReader;
import io.fleetlake.dashboard.http.JavalinHttpAdapter;
import io.fleetlake.dashboard.http.Json;
import io.fleetlake.dashboard.http.Router;
import io.fleetlake.dashboard.security.DashboardSecurityConfig;
import io.fleetlake.dashboard.security.SignInGate;
import io.fleetlake.http.RequestLimits;
import io.fleetlake.http.RequestObserver;
import java.net.URI;
import java.time.Clock;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations dashboard, embeddable: {@link #start()} creates the Redis, Trino and Flink clients and listens for
 * HTTP; {@link #close()} stops listening and closes the clients. Redis, Trino and Flink need not be up: each request
 * reports what it could not reach.
 *
 * <p>Health check: {@code GET /healthz} answers 200 once the server is started; everything else but the sign-in page
 * needs a session ({@link SignInGate}).
 */
public final class DashboardServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DashboardServer.class);

    private final DashboardConfig config;
    private final DashboardSecurityConfig security;
    private final BiFunction<DashboardConfig, ObjectMapper, Backends> backendsFactory;
    private final Clock clock;
    private final HealthReader health;
    private final RequestObserver observer;
    private Backends backends;
    private JavalinHttpAdapter http;

    /**
     * @param security who may sign in, and the server's limits
     * @param health the stack's health report for the health panel ({@link DashboardHealthConfig#reader()})
     * @param observer told about every request answered, such as {@link DashboardMetrics}
     */
    public DashboardServer(
            DashboardConfig config, DashboardSecurityConfig security, HealthReader health, RequestObserver observer) {
        this(config, security, Backends::production, Clock.systemUTC(), health, observer);
    }

    DashboardServer(
            DashboardConfig config,
            DashboardSecurityConfig security,
            BiFunction<DashboardConfig, ObjectMapper, Backends> backendsFactory,
            Clock clock) {
        this(config, security, backendsFactory, clock, HealthReader.NOT_CONFIGURED, RequestObserver.NONE);
    }

    DashboardServer(
            DashboardConfig config,
            DashboardSecurityConfig security,
            BiFunction<DashboardConfig, ObjectMapper, Backends> backendsFactory,
            Clock clock,
            HealthReader health,
            RequestObserver observer) {
        this.config = requireNonNull(config, "config is null");
        this.security = requireNonNull(security, "security is null");
        this.backendsFactory = requireNonNull(backendsFactory, "backendsFactory is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.health = requireNonNull(health, "health is null");
        this.observer = requireNonNull(observer, "observer is null");
    }

    /**
     * Starts the server; on failure everything opened so far is closed again.
     *
     * @throws IllegalStateException when the server was already started
     */
    public synchronized DashboardServer start() {
        if (backends != null) {
            throw new IllegalStateException("The dashboard is already started");
        }
        LOG.info("Starting the dashboard with {} and {}", config, security);
        ObjectMapper mapper = Json.mapper();
        Backends opened = backendsFactory.apply(config, mapper);
        try {
            Router router = DashboardRoutes.router(
                    opened.currentState(),
                    opened.history(),
                    opened.counters(),
                    health,
                    observer,
                    new DashboardRoutes.Settings(config.staleAfter(), config.pollInterval(), config.replayLookback()),
                    clock,
                    mapper);
            SignInGate gate = SignInGate.of(security, clock, mapper);
            http = JavalinHttpAdapter.start(
                    router,
                    gate::handle,
                    new RequestLimits(security.maxRequestBytes(), security.maxConcurrentRequests()),
                    config.host(),
                    config.port());
        } catch (RuntimeException e) {
            closeAfterFailedStart(opened, e);
            throw e;
        }
        backends = opened;
        return this;
    }

    /** The port the server listens on; differs from the configured one when that was 0. */
    public synchronized int port() {
        if (http == null) {
            throw new IllegalStateException("The dashboard is not started");
        }
        return http.port();
    }

    /** {@code host:port}, as the ready line shows it. */
    public String endpoint() {
        return config.host() + ":" + port();
    }

    /** The page's address, such as {@code http://127.0.0.1:8088/}. */
    public URI uri() {
        return URI.create("http://" + endpoint() + "/");
    }

    @Override
    public synchronized void close() {
        if (backends == null) {
            return;
        }
        Backends closing = backends;
        backends = null;
        try {
            http.close();
        } finally {
            http = null;
            closing.resources().close();
        }
        LOG.info("Dashboard stopped");
    }

    private static void closeAfterFailedStart(Backends opened, RuntimeException failure) {
        try {
            opened.resources().close();
        } catch (RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}

package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The planning API server, embeddable: {@link #start()} plans the simulated fleet's journeys up to now ({@link
 * RouteDirectory#forFleet}) and listens for HTTP; {@link #close()} stops listening. Assigned routes live in memory and
 * are lost when the server stops.
 *
 * <p>Every request but the health check carries {@code Authorization: Bearer <planning.token>}; bodies and concurrent
 * requests are bounded (see {@link JavalinAdapter}). Health check: {@code GET /healthz} answers 200 once the server is
 * started, without a token.
 */
public final class PlanningApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlanningApiServer.class);

    private final PlanningApiConfig config;
    private final Clock clock;
    private RouteDirectory directory;
    private JavalinAdapter http;

    public PlanningApiServer(PlanningApiConfig config) {
        this(config, Clock.systemUTC());
    }

    PlanningApiServer(PlanningApiConfig config, Clock clock) {
        this.config = requireNonNull(config, "config is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Starts the server.
     *
     * @throws IllegalStateException when the server was already started
     */
    public synchronized PlanningApiServer start() {
        if (http != null) {
            throw new IllegalStateException("The planning API server is already started");
        }
        String token = config.token()
                .orElseThrow(() -> new IllegalStateException("The planning API refuses anonymous requests: set "
                        + PlanningApiConfig.TOKEN + " (at least " + PlanningApiConfig.MINIMUM_TOKEN_LENGTH
                        + " characters, a generated secret) in the configuration file or as FLEET_PLANNING_TOKEN;"
                        + " its clients send it as Authorization: Bearer <token>"));
        long startNanos = System.nanoTime();
        RouteDirectory routes = RouteDirectory.forFleet(config, clock);
        LOG.info(
                "Planned the routes of {} vehicles (seed {}) in {} ms",
                routes.fleetSize(),
                config.seed(),
                (System.nanoTime() - startNanos) / 1_000_000);
        http = JavalinAdapter.start(PlanningRoutes.over(routes), config, token);
        directory = routes;
        return this;
    }

    /** The port the server listens on; differs from the configured one when that was 0. */
    public synchronized int port() {
        return started().port();
    }

    /** The base URI for clients, such as {@code http://127.0.0.1:8090}. */
    public URI uri() {
        return URI.create("http://" + config.host() + ":" + port());
    }

    /** The routes served, for example to assign one in-process. */
    public synchronized RouteDirectory directory() {
        started();
        return directory;
    }

    /** Stops listening; does nothing when not started. */
    @Override
    public synchronized void close() {
        if (http == null) {
            return;
        }
        try {
            http.close();
        } finally {
            http = null;
            directory = null;
        }
        LOG.info("Planning API stopped");
    }

    private JavalinAdapter started() {
        if (http == null) {
            throw new IllegalStateException("The planning API server is not started");
        }
        return http;
    }
}

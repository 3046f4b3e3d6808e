package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.model.FleetPatterns;
import java.time.Duration;
import java.util.Optional;

/**
 * Configuration of the planning API server: where it listens ({@code planning.*}) and which fleet it serves. The fleet
 * is read from the simulator's own keys ({@value FleetSimulatorConfig#SEED}, {@value FleetSimulatorConfig#VEHICLES},
 * {@value FleetSimulatorConfig#DELIVERY_STOP_DURATION}), so that one configuration gives the simulator and the planning
 * API the same routes. The other simulator keys (device formats, incidents) do not change routes and are not read.
 *
 * @param host address to listen on; never all interfaces by default
 * @param port port to listen on; 0 picks a free one
 * @param seed the simulator's seed
 * @param vehicles the simulator's fleet size
 * @param deliveryStopDuration the simulator's delivery stop duration, which sets when each trip starts
 * @param token the bearer token every request but {@code GET /healthz} must carry; the server refuses to start without
 *     one ({@link PlanningApiServer#start()}); never shown by {@link #toString()}
 * @param maxRequestBytes the largest request body accepted; a larger one is answered 413 without being read
 * @param maxConcurrentRequests requests served at once; one more is answered 503 at once
 */
public record PlanningApiConfig(
        String host,
        int port,
        long seed,
        int vehicles,
        Duration deliveryStopDuration,
        Optional<String> token,
        long maxRequestBytes,
        int maxConcurrentRequests) {
    public static final String HOST = "planning.host";
    public static final String PORT = "planning.port";
    public static final String TOKEN = "planning.token";
    public static final String MAX_REQUEST_BYTES = "planning.max-request-bytes";
    public static final String MAX_CONCURRENT_REQUESTS = "planning.max-concurrent-requests";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8090;

    /**
     * A route with a long path is some tens of kilobytes of JSON; 1 MiB leaves room, and bounds what the concurrent
     * requests can make the server hold ({@value #DEFAULT_MAX_CONCURRENT_REQUESTS} MiB).
     */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 1L << 20;

    /** The pipeline polls with one request at a time; operators assign routes one by one. */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 16;

    /** Generated tokens are 256 random bits; shorter ones are refused. */
    public static final int MINIMUM_TOKEN_LENGTH = 16;

    public PlanningApiConfig {
        requireNonNull(host, "host is null");
        requireNonNull(deliveryStopDuration, "deliveryStopDuration is null");
        requireNonNull(token, "token is null");
        require(!host.isBlank(), HOST, host, "a host name or address to listen on, such as 127.0.0.1");
        require(port >= 0 && port <= 65535, PORT, port, "a port between 0 (any free port) and 65535, such as 8090");
        require(
                vehicles >= 1 && vehicles <= FleetSimulatorConfig.MAXIMUM_VEHICLES,
                FleetSimulatorConfig.VEHICLES,
                vehicles,
                "between 1 and " + FleetSimulatorConfig.MAXIMUM_VEHICLES + ", the simulator's fleet size");
        require(
                !deliveryStopDuration.isNegative()
                        && deliveryStopDuration.compareTo(FleetPatterns.MAXIMUM_DELIVERY_STOP_DURATION) <= 0,
                FleetSimulatorConfig.DELIVERY_STOP_DURATION,
                deliveryStopDuration,
                "0s (drive through stops) or a duration up to 1h, the simulator's delivery stop duration");
        if (token.isPresent() && token.get().length() < MINIMUM_TOKEN_LENGTH) {
            throw new ConfigException("Invalid configuration " + TOKEN + ": shorter than " + MINIMUM_TOKEN_LENGTH
                    + " characters; set a generated secret (the embedded stack generates one per data folder)");
        }
        require(
                maxRequestBytes >= 1024,
                MAX_REQUEST_BYTES,
                maxRequestBytes,
                "at least 1024 bytes, such as " + DEFAULT_MAX_REQUEST_BYTES);
        require(
                maxConcurrentRequests >= 1,
                MAX_CONCURRENT_REQUESTS,
                maxConcurrentRequests,
                "at least 1, such as " + DEFAULT_MAX_CONCURRENT_REQUESTS);
    }

    /** Reads the {@code planning.*} keys and the simulator's fleet keys, with their defaults. */
    public static PlanningApiConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new PlanningApiConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.longValue(FleetSimulatorConfig.SEED, FleetSimulatorConfig.DEFAULT_SEED),
                source.integer(FleetSimulatorConfig.VEHICLES, FleetSimulatorConfig.DEFAULT_VEHICLES),
                FleetSimulatorConfig.deliveryStopDuration(source),
                source.string(TOKEN).filter(token -> !token.isEmpty()),
                source.longValue(MAX_REQUEST_BYTES, DEFAULT_MAX_REQUEST_BYTES),
                source.integer(MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_CONCURRENT_REQUESTS));
    }

    @Override
    public String toString() {
        return "PlanningApiConfig[host=" + host + ", port=" + port + ", seed=" + seed + ", vehicles=" + vehicles
                + ", deliveryStopDuration=" + deliveryStopDuration + ", token="
                + token.map(present -> "[hidden]").orElse("none") + ", maxRequestBytes=" + maxRequestBytes
                + ", maxConcurrentRequests=" + maxConcurrentRequests + "]";
    }

    /** Every default. */
    public static PlanningApiConfig defaults() {
        return from(ConfigSource.empty());
    }

    private static void require(boolean valid, String key, Object value, String expected) {
        if (!valid) {
            throw ConfigException.invalidValue(key, value, expected);
        }
    }
}

package io.fleetlake.simulator.planning;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.simulator.FleetSimulatorConfig;
import io.fleetlake.simulator.model.FleetPatterns;
import java.time.Duration;

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
 */
public record PlanningApiConfig(String host, int port, long seed, int vehicles, Duration deliveryStopDuration) {
    public static final String HOST = "planning.host";
    public static final String PORT = "planning.port";

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 8090;

    public PlanningApiConfig {
        requireNonNull(host, "host is null");
        requireNonNull(deliveryStopDuration, "deliveryStopDuration is null");
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
    }

    /** Reads {@code planning.host}, {@code planning.port} and the simulator's fleet keys, with their defaults. */
    public static PlanningApiConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        return new PlanningApiConfig(
                source.string(HOST, DEFAULT_HOST),
                source.port(PORT, DEFAULT_PORT),
                source.longValue(FleetSimulatorConfig.SEED, FleetSimulatorConfig.DEFAULT_SEED),
                source.integer(FleetSimulatorConfig.VEHICLES, FleetSimulatorConfig.DEFAULT_VEHICLES),
                FleetSimulatorConfig.deliveryStopDuration(source));
    }

    /** Every default. */
    public static PlanningApiConfig defaults() {
        return from(ConfigSource.empty());
    }

    private static void require(boolean valid, String key, Object value, String expected) {
        if (!valid) {
            throw new ConfigException("Invalid configuration " + key + " = '" + value + "': expected " + expected
                    + " (set it in the configuration file, the environment variable "
                    + ConfigSource.environmentName(key) + " or with --set " + key + "=...)");
        }
    }
}

package io.fleetlake.flink.config;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;

/**
 * How positions are enriched with the planning API's routes, keys {@code enrichment.*}. Serialisable: the enrichment
 * operator carries it to the tasks.
 *
 * @param routeRefresh how often every vehicle's route is fetched from the planning API
 * @param planningTimeout how long one fetch may take (connection and answer) before it counts as failed
 * @param routeStaleAfter a route fetched longer ago than this is still used, but the position is flagged
 *     {@code enrichment_stale}: the planning API has been unreachable; defaults to twice {@code routeRefresh}
 * @param arrivalRadiusM a fix within this many metres of the next stop reaches it, and the stop after it becomes next
 * @param stopSpeedKmh below this speed a fix counts as stationary (also the stop speed of {@code seconds_stopped} in
 *     {@code fleet.vehicle_minutes})
 * @param stopMinDuration event time a vehicle must stay below the stop speed to be {@code STOPPED}
 * @param deviationThresholdM farther than this from the route path a fix is off the route
 * @param deviationMinFixes consecutive off-route fixes after which the vehicle is {@code DEVIATING}
 * @param planningToken the planning API's bearer token, sent as {@code Authorization: Bearer <token>}; empty for an API
 *     that asks for none (a plain string: the record is serialised, {@code Optional} is not); never shown by {@link
 *     #toString()}
 */
public record EnrichmentConfig(
        Duration routeRefresh,
        Duration planningTimeout,
        Duration routeStaleAfter,
        double arrivalRadiusM,
        double stopSpeedKmh,
        Duration stopMinDuration,
        double deviationThresholdM,
        int deviationMinFixes,
        String planningToken)
        implements Serializable {
    public static final String ROUTE_REFRESH = "enrichment.route-refresh";
    public static final String PLANNING_TIMEOUT = "enrichment.planning-timeout";
    public static final String ROUTE_STALE_AFTER = "enrichment.route-stale-after";
    public static final String ARRIVAL_RADIUS_M = "enrichment.arrival-radius-m";
    public static final String STOP_SPEED_KMH = "enrichment.stop-speed-kmh";
    public static final String STOP_MIN_DURATION = "enrichment.stop-min-duration";
    public static final String DEVIATION_THRESHOLD_M = "enrichment.deviation-threshold-m";
    public static final String DEVIATION_MIN_FIXES = "enrichment.deviation-min-fixes";
    public static final String PLANNING_TOKEN = "enrichment.planning-token";

    public static final Duration DEFAULT_ROUTE_REFRESH = Duration.ofMinutes(5);
    public static final Duration DEFAULT_PLANNING_TIMEOUT = Duration.ofSeconds(5);
    /** {@value #ROUTE_STALE_AFTER} defaults to this many times {@value #ROUTE_REFRESH}: one missed refresh is fine. */
    public static final int DEFAULT_STALE_AFTER_REFRESHES = 2;

    public static final double DEFAULT_ARRIVAL_RADIUS_M = 50;
    public static final double DEFAULT_STOP_SPEED_KMH = 3;
    public static final Duration DEFAULT_STOP_MIN_DURATION = Duration.ofSeconds(60);
    public static final double DEFAULT_DEVIATION_THRESHOLD_M = 150;
    public static final int DEFAULT_DEVIATION_MIN_FIXES = 3;

    private static final long serialVersionUID = 1L;

    public EnrichmentConfig {
        requireNonNull(routeRefresh, "routeRefresh is null");
        requireNonNull(planningTimeout, "planningTimeout is null");
        requireNonNull(routeStaleAfter, "routeStaleAfter is null");
        requireNonNull(stopMinDuration, "stopMinDuration is null");
        requireNonNull(planningToken, "planningToken is null");
        requirePositive(ROUTE_REFRESH, routeRefresh);
        requirePositive(PLANNING_TIMEOUT, planningTimeout);
        if (routeStaleAfter.compareTo(routeRefresh) <= 0) {
            throw new ConfigException("Invalid configuration " + ROUTE_STALE_AFTER + " = " + routeStaleAfter
                    + ": expected more than " + ROUTE_REFRESH + " (" + routeRefresh + "), otherwise routes are"
                    + " flagged stale between two successful refreshes");
        }
        if (stopMinDuration.isNegative()) {
            throw new ConfigException("Invalid configuration " + STOP_MIN_DURATION + " = " + stopMinDuration
                    + ": expected zero or a positive duration such as 60s");
        }
        requirePositive(ARRIVAL_RADIUS_M, arrivalRadiusM);
        requirePositive(STOP_SPEED_KMH, stopSpeedKmh);
        requirePositive(DEVIATION_THRESHOLD_M, deviationThresholdM);
        if (deviationMinFixes < 1) {
            throw new ConfigException("Invalid configuration " + DEVIATION_MIN_FIXES + " = " + deviationMinFixes
                    + ": expected at least 1 consecutive fix");
        }
    }

    /** Every default; {@code enrichment.route-stale-after} is twice the refresh. */
    public static EnrichmentConfig defaults() {
        return from(ConfigSource.empty());
    }

    /** Reads and validates every {@code enrichment.*} key; each has a default. */
    public static EnrichmentConfig from(ConfigSource source) {
        requireNonNull(source, "source is null");
        Duration routeRefresh = source.duration(ROUTE_REFRESH, DEFAULT_ROUTE_REFRESH);
        return new EnrichmentConfig(
                routeRefresh,
                source.duration(PLANNING_TIMEOUT, DEFAULT_PLANNING_TIMEOUT),
                source.duration(ROUTE_STALE_AFTER, routeRefresh.multipliedBy(DEFAULT_STALE_AFTER_REFRESHES)),
                source.doubleValue(ARRIVAL_RADIUS_M, DEFAULT_ARRIVAL_RADIUS_M),
                source.doubleValue(STOP_SPEED_KMH, DEFAULT_STOP_SPEED_KMH),
                source.duration(STOP_MIN_DURATION, DEFAULT_STOP_MIN_DURATION),
                source.doubleValue(DEVIATION_THRESHOLD_M, DEFAULT_DEVIATION_THRESHOLD_M),
                source.integer(DEVIATION_MIN_FIXES, DEFAULT_DEVIATION_MIN_FIXES),
                source.string(PLANNING_TOKEN, ""));
    }

    @Override
    public String toString() {
        return "EnrichmentConfig[routeRefresh=" + routeRefresh + ", planningTimeout=" + planningTimeout
                + ", routeStaleAfter=" + routeStaleAfter + ", arrivalRadiusM=" + arrivalRadiusM + ", stopSpeedKmh="
                + stopSpeedKmh + ", stopMinDuration=" + stopMinDuration + ", deviationThresholdM="
                + deviationThresholdM + ", deviationMinFixes=" + deviationMinFixes + ", planningToken="
                + (planningToken.isEmpty() ? "none" : "[hidden]") + "]";
    }

    /** {@link #planningToken()}, when one is set. */
    public Optional<String> token() {
        return planningToken.isEmpty() ? Optional.empty() : Optional.of(planningToken);
    }

    private static void requirePositive(String key, Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new ConfigException(
                    "Invalid configuration " + key + " = " + duration + ": expected a positive duration such as 5m");
        }
    }

    private static void requirePositive(String key, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new ConfigException(
                    "Invalid configuration " + key + " = " + value + ": expected a positive finite number");
        }
    }
}
